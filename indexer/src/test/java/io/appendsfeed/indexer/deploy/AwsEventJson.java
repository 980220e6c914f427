package io.appendsfeed.indexer.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Record;

/**
 * Test support: the JSON Lambda hands a function subscribed to a DynamoDB stream, written from real
 * Streams records (capitalised attribute-value keys, binary as base64, times in epoch seconds).
 */
public final class AwsEventJson {

    private static final ObjectMapper JSON = new ObjectMapper();

    private AwsEventJson() {}

    public static ObjectNode event(List<Record> records, String streamArn) {
        ObjectNode event = JSON.createObjectNode();
        ArrayNode out = event.putArray("Records");
        for (Record r : records) {
            ObjectNode rec = out.addObject();
            rec.put("eventID", r.eventID());
            rec.put("eventName", r.eventNameAsString());
            rec.put("eventVersion", r.eventVersion());
            rec.put("eventSource", "aws:dynamodb");
            rec.put("awsRegion", r.awsRegion());
            var d = r.dynamodb();
            ObjectNode dyn = rec.putObject("dynamodb");
            if (d.approximateCreationDateTime() != null) {
                dyn.put("ApproximateCreationDateTime", d.approximateCreationDateTime().getEpochSecond());
            }
            dyn.set("Keys", map(d.keys()));
            if (d.hasNewImage()) {
                dyn.set("NewImage", map(d.newImage()));
            }
            dyn.put("SequenceNumber", d.sequenceNumber());
            dyn.put("SizeBytes", d.sizeBytes());
            dyn.put("StreamViewType", d.streamViewTypeAsString());
            rec.put("eventSourceARN", streamArn);
        }
        return event;
    }

    static ObjectNode map(Map<String, AttributeValue> m) {
        ObjectNode out = JSON.createObjectNode();
        m.forEach((k, v) -> out.set(k, value(v)));
        return out;
    }

    static JsonNode value(AttributeValue v) {
        ObjectNode out = JSON.createObjectNode();
        switch (v.type()) {
            case S -> out.put("S", v.s());
            case N -> out.put("N", v.n());
            case B -> out.put("B", base64(v.b()));
            case BOOL -> out.put("BOOL", v.bool());
            case NUL -> out.put("NULL", true);
            case M -> out.set("M", map(v.m()));
            case L -> {
                ArrayNode l = out.putArray("L");
                v.l().forEach(x -> l.add(value(x)));
            }
            case SS -> v.ss().forEach(out.putArray("SS")::add);
            case NS -> v.ns().forEach(out.putArray("NS")::add);
            case BS -> v.bs().forEach(b -> out.withArray("BS").add(base64(b)));
            default -> throw new IllegalArgumentException("unexpected attribute value " + v);
        }
        return out;
    }

    private static String base64(SdkBytes b) {
        return Base64.getEncoder().encodeToString(b.asByteArray());
    }
}

package io.appendsfeed.indexer.lambda;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.events.models.dynamodb.StreamRecord;
import com.amazonaws.services.lambda.runtime.serialization.PojoSerializer;
import com.amazonaws.services.lambda.runtime.serialization.events.LambdaEventSerializers;
import io.appendsfeed.indexer.ChangeRecord;
import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The oracle for {@link LambdaEvent}: the event's JSON read by the Lambda Java runtime's own serializer
 * into the {@code aws-lambda-java-events} types (as the runtime hands a {@code RequestHandler} its
 * {@code DynamodbEvent}), then converted into the records the indexer reads, field by field, the way the
 * handler of those types did: keys, sequence number, view type, creation time, the image's {@code a} and
 * {@code n} (and {@code c} when it is not a list), and the types of {@code c} as a list whose elements are
 * checked when asked for.
 */
final class RuntimeEvent {

    private static final PojoSerializer<DynamodbEvent> RUNTIME = LambdaEventSerializers.serializerFor(DynamodbEvent.class,
            RuntimeEvent.class.getClassLoader());

    private RuntimeEvent() {}

    /** The runtime's decoding of the JSON. @throws RuntimeException when the runtime cannot read it */
    static DynamodbEvent decode(byte[] json) {
        return RUNTIME.fromJson(new ByteArrayInputStream(json));
    }

    /** What {@link LambdaEvent#read} must give for the JSON the runtime read as {@code event}. */
    static LambdaEvent expected(DynamodbEvent event) {
        List<DynamodbEvent.DynamodbStreamRecord> records = event.getRecords() == null ? List.of() : event.getRecords();
        List<ChangeRecord> out = new ArrayList<>();
        LambdaEvent.Unidentified unidentified = null;
        LambdaEvent.Source first = null;
        LambdaEvent.Source last = null;
        int k = 0;
        for (DynamodbEvent.DynamodbStreamRecord r : records) {
            last = r.getEventSourceARN() == null ? null : new LambdaEvent.Source(r.getEventID(), r.getEventSourceARN());
            first = first == null ? last : first;
            StreamRecord d = r.getDynamodb();
            if (unidentified == null && (d == null || d.getSequenceNumber() == null || d.getSequenceNumber().isBlank())) {
                unidentified = new LambdaEvent.Unidentified(k, records.size(), r.getEventID(),
                        d == null ? "dynamodb part" : "dynamodb.SequenceNumber");
            } else if (unidentified == null) {
                out.add(record(r.getEventName(), d));
            }
            k++;
        }
        return new LambdaEvent(out, unidentified, records.size(), first, last, false);
    }

    private static ChangeRecord record(String eventName, StreamRecord d) {
        var image = d.getNewImage();
        List<String> types = image == null ? null : types(image.get("c"), d.getSequenceNumber());
        Map<String, AttributeValue> kept = null;
        if (image != null) {
            kept = new HashMap<>();
            for (String name : List.of("a", "n", "c")) {
                var v = image.get(name);
                if (v != null && !(name.equals("c") && types != null)) {
                    kept.put(name, value(v));
                }
            }
        }
        return new ChangeRecord(d.getSequenceNumber(), eventName, d.getStreamViewType(), map(d.getKeys()), kept,
                d.getApproximateCreationDateTime() == null ? null : d.getApproximateCreationDateTime().toInstant(), types);
    }

    /** {@code c}'s types, each checked when asked for; null when {@code c} is not a list. */
    private static List<String> types(com.amazonaws.services.lambda.runtime.events.models.dynamodb.AttributeValue c, String record) {
        return c == null || c.getL() == null ? null : ChangeRecord.checkedTypes(c.getL().stream()
                .map(t -> t != null && t.getS() != null && !t.getS().isEmpty() ? (Object) t.getS() : t).toList(), record);
    }

    private static Map<String, AttributeValue> map(Map<String, com.amazonaws.services.lambda.runtime.events.models.dynamodb.AttributeValue> m) {
        Map<String, AttributeValue> out = new java.util.LinkedHashMap<>(); // the runtime's maps keep the event's order
        if (m != null) {
            m.forEach((k, v) -> out.put(k, value(v)));
        }
        return out;
    }

    private static AttributeValue value(com.amazonaws.services.lambda.runtime.events.models.dynamodb.AttributeValue v) {
        if (v.getS() != null) return AttributeValue.fromS(v.getS());
        if (v.getN() != null) return AttributeValue.fromN(v.getN());
        if (v.getB() != null) return AttributeValue.fromB(SdkBytes.fromByteBuffer(v.getB().duplicate()));
        if (v.getBOOL() != null) return AttributeValue.fromBool(v.getBOOL());
        if (v.getNULL() != null) return AttributeValue.fromNul(v.getNULL());
        if (v.getM() != null) return AttributeValue.fromM(map(v.getM()));
        if (v.getL() != null) return AttributeValue.fromL(v.getL().stream().map(RuntimeEvent::value).toList());
        if (v.getSS() != null) return AttributeValue.fromSs(v.getSS());
        if (v.getNS() != null) return AttributeValue.fromNs(v.getNS());
        if (v.getBS() != null) return AttributeValue.fromBs(v.getBS().stream().map(b -> SdkBytes.fromByteBuffer(b.duplicate())).toList());
        throw new AssertionError("an attribute value without a type: the generator makes none");
    }
}

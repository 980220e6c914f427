package io.appendsfeed.indexer.lambda;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.events.models.dynamodb.AttributeValue;
import com.amazonaws.services.lambda.runtime.events.models.dynamodb.StreamRecord;
import com.amazonaws.services.lambda.runtime.events.models.dynamodb.StreamViewType;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.Record;

/** Test support: a {@link DynamodbEvent} made from real SDK v2 Streams records, as Lambda would deliver them. */
final class LambdaEvents {

    private LambdaEvents() {}

    static DynamodbEvent of(List<Record> records) {
        DynamodbEvent event = new DynamodbEvent();
        event.setRecords(records.stream().map(LambdaEvents::record).toList());
        return event;
    }

    private static DynamodbEvent.DynamodbStreamRecord record(Record r) {
        var d = r.dynamodb();
        StreamRecord sr = new StreamRecord().withSequenceNumber(d.sequenceNumber()).withSizeBytes(d.sizeBytes())
                .withStreamViewType(StreamViewType.fromValue(d.streamViewTypeAsString()))
                .withKeys(map(d.keys()));
        if (d.hasNewImage()) {
            sr.setNewImage(map(d.newImage()));
        }
        if (d.approximateCreationDateTime() != null) {
            sr.setApproximateCreationDateTime(Date.from(d.approximateCreationDateTime()));
        }
        DynamodbEvent.DynamodbStreamRecord out = new DynamodbEvent.DynamodbStreamRecord();
        out.setEventID(r.eventID());
        out.setEventName(r.eventNameAsString());
        out.setEventSource("aws:dynamodb");
        out.setEventVersion(r.eventVersion());
        out.setAwsRegion(r.awsRegion());
        out.setDynamodb(sr);
        return out;
    }

    private static Map<String, AttributeValue> map(Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> m) {
        Map<String, AttributeValue> out = new LinkedHashMap<>();
        m.forEach((k, v) -> out.put(k, value(v)));
        return out;
    }

    private static AttributeValue value(software.amazon.awssdk.services.dynamodb.model.AttributeValue v) {
        return switch (v.type()) {
            case S -> new AttributeValue().withS(v.s());
            case N -> new AttributeValue().withN(v.n());
            case B -> new AttributeValue().withB(v.b().asByteBuffer());
            case BOOL -> new AttributeValue().withBOOL(v.bool());
            case NUL -> new AttributeValue().withNULL(true);
            case M -> new AttributeValue().withM(map(v.m()));
            case L -> new AttributeValue().withL(v.l().stream().map(LambdaEvents::value).toList());
            case SS -> new AttributeValue().withSS(v.ss());
            case NS -> new AttributeValue().withNS(v.ns());
            case BS -> new AttributeValue().withBS(v.bs().stream().map(b -> b.asByteBuffer()).toList());
            default -> throw new IllegalArgumentException("unexpected attribute value " + v);
        };
    }
}

package io.appendsfeed.indexer.lambda;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import io.appendsfeed.indexer.ChangeRecord;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A DynamoDB stream event as Lambda delivers it, read with Jackson's streaming parser into
 * {@link ChangeRecord}s: the keys, sequence number, view type, creation time, and the new image's {@code a},
 * {@code n} and event types {@code c}. Event bodies, unfolds and the old image (most of a Tip's bytes) are
 * stepped over, never made into objects.
 *
 * <p><b>Strict.</b> What Lambda never writes is an {@link IllegalArgumentException} naming the record, before
 * anything is written (indexer/DEPLOY.md lists the cases). A record not of the store format is read, for the indexer
 * to reject it. What is stepped over is checked as JSON, not for names given twice: that was 15% of a read.
 *
 * <p><b>Why not the runtime's decoding.</b> {@code LambdaEventBench} (Tips of 16 KB, thread CPU, C1 as the
 * template runs it): 4.4 ms a batch of 100 and 14 ms of 300, against 10.4 and 31 for {@code aws-lambda-java-events}.
 *
 * @param records the records, up to the first without a sequence number ({@code unidentified}, or null)
 * @param delivered how many records the event holds
 * @param first the first record that names its stream's ARN, or null; {@code last} the last, when it names it
 * @param scheduled an EventBridge schedule's event ({@code "source": "aws.events"}, no records), not a stream's
 */
public record LambdaEvent(List<ChangeRecord> records, Unidentified unidentified, int delivered, Source first, Source last,
                          boolean scheduled) {

    /** The deepest JSON nesting read: DynamoDB's 32 levels of attribute values take 64, the event 5 more. */
    static final int MAX_DEPTH = 100;

    private static final JsonFactory JSON = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH).build())
            .build();

    /** Where a record comes from, for the handler's check of the batch's source. */
    public record Source(String eventId, String arn) {}

    /** A record delivered without a sequence number: its place in the batch (0-based), its event id and what is missing. */
    public record Unidentified(int position, int batchSize, String eventId, String missing) {
        @Override
        public String toString() {
            return "Lambda stream record " + eventId + " (" + (position + 1) + " of " + batchSize + " in the batch) has no "
                    + missing + "; is the function subscribed to a DynamoDB stream?";
        }
    }

    /** @throws IllegalArgumentException naming the record and what is wrong, when the input is not an event as Lambda writes it */
    public static LambdaEvent read(InputStream in) throws IOException {
        List<ChangeRecord> out = new ArrayList<>();
        Unidentified unidentified = null;
        int delivered = 0;
        Source first = null;
        Source last = null;
        boolean records = false;
        String source = null;
        try (JsonParser p = JSON.createParser(in)) {
            JsonToken start = p.nextToken();
            if (start != JsonToken.START_OBJECT) {
                throw new JsonParseException(p, start == null ? "the input is empty" : "the event is not a JSON object");
            }
            Set<String> names = new HashSet<>();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = once(p, names);
                JsonToken value = p.nextToken();
                if (name.equals("source") && value == JsonToken.VALUE_STRING) {
                    source = p.getText();
                }
                if (value == JsonToken.VALUE_NULL || !name.equals("Records")) {
                    p.skipChildren();
                    continue;
                }
                records = true;
                expect(p, JsonToken.START_ARRAY, "Records", " is not a JSON array");
                for (; p.nextToken() != JsonToken.END_ARRAY; delivered++) {
                    Reader r = new Reader(p);
                    try {
                        r.record();
                    } catch (JsonProcessingException e) {
                        throw refused(r.name(delivered) + ": ", e);
                    }
                    last = r.arn == null ? null : new Source(r.eventId, r.arn);
                    first = first == null ? last : first;
                    String missing = r.keys == null ? "dynamodb part"
                            : r.sequenceNumber == null || r.sequenceNumber.isBlank() ? "dynamodb.SequenceNumber" : null;
                    if (unidentified == null && missing != null) {
                        unidentified = new Unidentified(delivered, -1, r.eventId, missing); // the batch's size once read
                    } else if (unidentified == null) {
                        out.add(new ChangeRecord(r.sequenceNumber, r.eventName, r.viewType, r.keys, r.image, r.created,
                                r.types == null ? null : ChangeRecord.checkedTypes(r.types, r.sequenceNumber)));
                    }
                }
            }
            if (p.nextToken() != null) {
                throw new JsonParseException(p, "more follows the event's JSON object");
            }
        } catch (JsonProcessingException e) {
            throw refused("", e);
        }
        return new LambdaEvent(out, unidentified == null ? null
                : new Unidentified(unidentified.position(), delivered, unidentified.eventId(), unidentified.missing()),
                delivered, first, last, !records && "aws.events".equals(source));
    }

    /** @see #read(InputStream) */
    public static LambdaEvent read(byte[] json) {
        try {
            return read(new ByteArrayInputStream(json));
        } catch (IOException e) {
            throw new UncheckedIOException(e); // from an array: only Jackson's own errors, which read() turns into refusals
        }
    }

    private static IllegalArgumentException refused(String where, JsonProcessingException e) {
        var at = e.getLocation();
        // Jackson names where an unclosed object began by a source it does not show: the byte offset says where
        String problem = e.getOriginalMessage().replaceAll(" \\(for \\w+ starting at \\[Source: .*?\\]\\)", "")
                + (at == null ? "" : " (at byte " + at.getByteOffset() + ")");
        return new IllegalArgumentException("the Lambda event is not a DynamoDB stream event as Lambda writes it: " + where + problem
                + "; is the function mapped to the store table's DynamoDB stream? Nothing was written", e);
    }

    /** The name the parser is on, refused when {@code seen} holds it: where a name twice would be read twice. */
    private static String once(JsonParser p, Set<String> seen) throws IOException {
        if (!seen.add(p.currentName())) {
            throw new JsonParseException(p, "Duplicate field '" + p.currentName() + "'");
        }
        return p.currentName();
    }

    private static void expect(JsonParser p, JsonToken token, Object what, String problem) throws JsonParseException {
        if (p.currentToken() != token) {
            throw new JsonParseException(p, what + problem);
        }
    }

    /** A place in a record, {@code NewImage.c.L.S}, made text only for a refusal: for every value read, 8% of a read at C1. */
    private record Path(Object parent, String name) {
        @Override
        public String toString() {
            return parent + "." + name;
        }
    }

    /** One record, read from the parser; its facts in fields, so that an error names it. */
    private static final class Reader {
        private final JsonParser p;
        private String eventId;
        private String eventName;
        private String arn;
        private String sequenceNumber;
        private String viewType;
        private Instant created;
        private Map<String, AttributeValue> keys; // null: no dynamodb part
        private Map<String, AttributeValue> image;
        private List<Object> types;

        Reader(JsonParser p) {
            this.p = p;
        }

        /** The record, by its place in the batch and what of its identity was read before a problem. */
        String name(int k) {
            String id = (eventId == null ? "" : "eventID " + eventId) + (eventId != null && sequenceNumber != null ? ", " : "")
                    + (sequenceNumber == null ? "" : "sequence number " + sequenceNumber);
            return "record " + (k + 1) + (id.isEmpty() ? "" : " (" + id + ")");
        }

        void record() throws IOException {
            expect(p, JsonToken.START_OBJECT, "the record", " is not a JSON object");
            Set<String> names = new HashSet<>();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = once(p, names);
                boolean isNull = p.nextToken() == JsonToken.VALUE_NULL;
                switch (name) {
                    case "eventID" -> eventId = text(name);
                    case "eventName" -> eventName = text(name);
                    case "eventSourceARN" -> arn = text(name);
                    case "dynamodb" -> keys = isNull ? null : dynamodb();
                    default -> p.skipChildren();
                }
            }
        }

        private Map<String, AttributeValue> dynamodb() throws IOException { // returns the keys, none when not given
            expect(p, JsonToken.START_OBJECT, "dynamodb", " is not a JSON object");
            Map<String, AttributeValue> keys = Map.of();
            Set<String> names = new HashSet<>();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = once(p, names);
                JsonToken t = p.nextToken();
                boolean isNull = t == JsonToken.VALUE_NULL;
                switch (name) {
                    case "SequenceNumber" -> sequenceNumber = text("dynamodb.SequenceNumber");
                    case "StreamViewType" -> viewType = text("dynamodb.StreamViewType");
                    case "ApproximateCreationDateTime" -> {
                        if (!isNull && !t.isNumeric()) {
                            throw new JsonParseException(p, "dynamodb.ApproximateCreationDateTime (epoch seconds) is not a number");
                        }
                        created = isNull ? null : Instant.ofEpochMilli((long) (p.getDoubleValue() * 1000));
                    }
                    case "Keys" -> keys = isNull ? Map.of() : map("dynamodb.Keys");
                    case "NewImage" -> image = isNull ? null : image();
                    default -> p.skipChildren();
                }
            }
            return keys;
        }

        /** {@code a}, {@code n}, and {@code c} unless a list: then its types, into {@link #types}. */
        private Map<String, AttributeValue> image() throws IOException {
            expect(p, JsonToken.START_OBJECT, "dynamodb.NewImage", " is not a JSON object");
            Map<String, AttributeValue> read = new HashMap<>(4);
            Set<String> names = new HashSet<>();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = once(p, names);
                p.nextToken();
                if (!(name.equals("a") || name.equals("n") || name.equals("c"))) {
                    p.skipChildren();
                    continue;
                }
                Path what = new Path("NewImage", name);
                String type = type(what);
                if (name.equals("c") && type.equals("L")) {
                    Path element = new Path(what, "L");
                    // a non-empty S as its string, no AttributeValue built: 12% of a read at C1; else as it is, refused when read
                    types = list(element, () -> {
                        String held = type(element);
                        Object t = held.equals("S") && p.currentToken() == JsonToken.VALUE_STRING && p.getTextLength() > 0
                                ? p.getText() : value(held, element);
                        end(element);
                        return t;
                    });
                } else {
                    read.put(name, value(type, what));
                }
                end(what);
            }
            return read;
        }

        /** An attribute value's one type, the parser on its object's start; then on the type's value. */
        private String type(Object what) throws IOException {
            expect(p, JsonToken.START_OBJECT, what, " is not an attribute value (a JSON object)");
            if (p.nextToken() != JsonToken.FIELD_NAME) {
                throw new JsonParseException(p, what + " is an attribute value without a type");
            }
            String type = p.currentName();
            p.nextToken();
            return type;
        }

        /** The end of an attribute value's object: a second type is refused. */
        private void end(Object what) throws IOException {
            if (p.nextToken() != JsonToken.END_OBJECT) {
                throw new JsonParseException(p, what + " is an attribute value with more than one type");
            }
        }

        private AttributeValue value(Object what) throws IOException {
            AttributeValue v = value(type(what), what);
            end(what);
            return v;
        }

        private AttributeValue value(String type, Object what) throws IOException {
            Path of = new Path(what, type);
            return switch (type) {
                case "S" -> AttributeValue.fromS(string(of));
                case "N" -> AttributeValue.fromN(string(of));
                case "B" -> AttributeValue.fromB(bytes(of));
                case "BOOL" -> AttributeValue.fromBool(bool(of));
                case "NULL" -> AttributeValue.fromNul(bool(of));
                case "M" -> AttributeValue.fromM(map(of));
                case "L" -> AttributeValue.fromL(list(of, () -> value(of)));
                case "SS" -> AttributeValue.fromSs(list(of, () -> string(of)));
                case "NS" -> AttributeValue.fromNs(list(of, () -> string(of)));
                case "BS" -> AttributeValue.fromBs(list(of, () -> bytes(of)));
                default -> throw new JsonParseException(p, what + " has the type '" + type + "', which DynamoDB does not have");
            };
        }

        private interface Element<T> {
            T read() throws IOException;
        }

        private <T> List<T> list(Object what, Element<T> element) throws IOException {
            expect(p, JsonToken.START_ARRAY, what, " is not a JSON array");
            List<T> out = new ArrayList<>();
            while (p.nextToken() != JsonToken.END_ARRAY) {
                out.add(element.read());
            }
            return out;
        }

        /** A map of attribute values (the keys, an {@code M}), the parser on its object's start. */
        private Map<String, AttributeValue> map(Object what) throws IOException {
            expect(p, JsonToken.START_OBJECT, what, " is not a JSON object");
            Map<String, AttributeValue> out = new LinkedHashMap<>(4); // in the event's order, as messages show it
            Set<String> names = new HashSet<>();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = once(p, names);
                p.nextToken();
                out.put(name, value(new Path(what, name)));
            }
            return out;
        }

        private String string(Object what) throws IOException {
            expect(p, JsonToken.VALUE_STRING, what, " is not a string");
            return p.getText();
        }

        private String text(Object what) throws IOException {
            return p.currentToken() == JsonToken.VALUE_NULL ? null : string(what); // Lambda writes these as strings
        }

        private SdkBytes bytes(Object what) throws IOException {
            expect(p, JsonToken.VALUE_STRING, what, " is not a string of base64");
            return SdkBytes.fromByteArrayUnsafe(p.getBinaryValue());
        }

        private boolean bool(Object what) throws IOException {
            if (!p.currentToken().isBoolean()) {
                throw new JsonParseException(p, what + " is not true or false");
            }
            return p.getBooleanValue();
        }
    }
}

package io.appendsfeed.indexer.lambda;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import io.appendsfeed.indexer.ChangeRecord;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A DynamoDB stream event as Lambda delivers it, read with Jackson's streaming parser straight into the
 * core's {@link ChangeRecord}s. Of each record it keeps what the indexer reads: the keys, the sequence
 * number, the view type, the creation time, and of the new image {@code a}, {@code n} and the event types
 * {@code c}. The rest (the events, bodies and all: their own {@code t} is a writer's clock, which the
 * indexer does not use; unfolds; the old image: most of a Tip's bytes) is stepped over by the parser,
 * never made into strings or objects.
 *
 * <p><b>Strict.</b> Lambda writes this JSON; what it never writes is refused, not guessed at: a name given
 * twice in any object (a second {@code Records} array, a decoy whose spans would be indexed; two {@code a}
 * in an image), bytes that are not UTF-8, nesting deeper than {@value #MAX_DEPTH}, an attribute value
 * without exactly one of DynamoDB's types, a number where Lambda writes a string, base64 that does not
 * decode, anything that is not JSON. Each is an {@link IllegalArgumentException} naming the record (its
 * place in the batch, its {@code eventID} and, when read before the problem, its sequence number) or,
 * outside the records, the event, and saying that nothing was written. The handler reads the whole event
 * before it writes, so such input fails the invocation, as input that is not JSON always did, and the
 * event source mapping's retries, bisection and on-failure destination take it from there. A well-formed
 * record that is not of the store's format (no {@code n}, a type that is not a string) is read, and the
 * indexer rejects it as the batch item failure. A record without a sequence number is noted
 * ({@link Unidentified}) and not converted, nor are the records after it.
 *
 * <p><b>Why Jackson.</b> This replaced a hand-written scanner (1,100 lines) that stepped over bodies
 * without tokenizing them. Reading a batch and parsing its records, measured by {@code LambdaEventBench}
 * (equinox-js-like Tips of 16 KB of JSON, 56 events each; thread CPU time, median of five runs, on this
 * machine: 2 cores shared with other builds, JDK 17, SerialGC as Lambda runs it), with C1 only, as the
 * template runs it: 6.3 ms a batch of 100 records and 19 ms a batch of 300, against 1.2 and 3.8 ms for
 * the scanner (measured on the same events before it was removed) and 10 and 31 ms for the Lambda
 * runtime's decoding into {@code aws-lambda-java-events} types, as a {@code RequestHandler} gets the
 * event; with C2, 2.8 and 8.5 ms, against 0.7 and 2.3 (scanner) and 4.6 and 13 ms (runtime). Duplicate
 * detection is about a fifth of Jackson's time, kept because it covers every object. So Jackson adds
 * 2 to 5 ms to a batch of 100, less than the batch's one DynamoDB write (a 5 to 10 ms round trip). That
 * buys a parser we do not own, strict where the scanner was not (it indexed invalid UTF-8 as
 * replacement characters, and both arrays of an event with two {@code Records}), in 410 lines for 1,100.
 *
 * @param records the records, up to the first without a sequence number
 * @param unidentified that record, or null when every record has one
 * @param delivered how many records the event holds
 * @param first the first record that names its stream's ARN, or null
 * @param last the last record, when it names its stream's ARN, or null
 */
record LambdaEvent(List<ChangeRecord> records, Unidentified unidentified, int delivered, Source first, Source last) {

    /** The deepest JSON nesting read: DynamoDB's 32 levels of attribute values take 64, the event 5 more. */
    static final int MAX_DEPTH = 100;

    private static final JsonFactory JSON = JsonFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH).build())
            .build();

    LambdaEvent {
        records = List.copyOf(records);
    }

    /** A record's identity, for the check of where the batch comes from. */
    record Source(String eventId, String arn) {}

    /** A record delivered without a sequence number: its place in the batch (0-based), its event id and what is missing. */
    record Unidentified(int position, int batchSize, String eventId, String missing) {
        @Override
        public String toString() {
            return "Lambda stream record " + eventId + " (" + (position + 1) + " of " + batchSize + " in the batch) has no "
                    + missing + "; is the function subscribed to a DynamoDB stream?";
        }
    }

    /**
     * @throws IllegalArgumentException when the input is not a DynamoDB stream event as Lambda writes it, naming
     *         the record and what is wrong
     * @throws IOException when the input cannot be read
     */
    static LambdaEvent read(InputStream in) throws IOException {
        try (JsonParser p = JSON.createParser(in)) {
            return new Reader(p).event();
        }
    }

    /** @see #read(InputStream) */
    static LambdaEvent read(byte[] json) {
        try {
            return read(new ByteArrayInputStream(json));
        } catch (IOException e) {
            throw new UncheckedIOException(e); // from an array: only Jackson's own errors, which read() turns into refusals
        }
    }

    /** The refusal of the {@code k}-th (0-based) of {@code size} event types, which is {@code held} and not a non-empty string. */
    static IllegalArgumentException notAType(String held, int k, int size, String record) {
        return new IllegalArgumentException("attribute c holds " + held + " where a non-empty string (S) event type"
                + " belongs (event type " + (k + 1) + " of " + size + ", record " + record + "); the item is"
                + " not of the store format: repair its c, or send the record to the on-failure destination");
    }

    /** Input that is not what Lambda writes, at a place the message names. */
    private static final class Malformed extends IllegalArgumentException {
        Malformed(String problem) {
            super(problem);
        }
    }

    private static IllegalArgumentException refused(String problem, Exception cause) {
        return new IllegalArgumentException("the Lambda event is not a DynamoDB stream event as Lambda writes it: " + problem
                + "; is the function mapped to the store table's DynamoDB stream? Nothing was written", cause);
    }

    private static String problem(Exception e, JsonParser p) {
        if (e instanceof JsonProcessingException j) {
            var at = j.getLocation();
            // Jackson names where an unclosed object began by a source it does not show: the byte offset says where
            String message = j.getOriginalMessage().replaceAll(" \\(for \\w+ starting at \\[Source: .*?\\]\\)", "");
            return message + (at == null ? "" : " (at byte " + at.getByteOffset() + ")");
        }
        return e.getMessage() + " (at byte " + p.currentLocation().getByteOffset() + ")";
    }

    /** One pass over the event; the current record's facts in fields, so that an error can name it. */
    private static final class Reader {
        private final JsonParser p;
        private String eventId;
        private String eventName;
        private String arn;
        private boolean hasDynamodb;
        private String sequenceNumber;
        private String viewType;
        private Instant created;
        private Map<String, AttributeValue> keys;
        private Map<String, AttributeValue> image;
        private List<Object> types;

        Reader(JsonParser p) {
            this.p = p;
        }

        LambdaEvent event() throws IOException {
            List<ChangeRecord> out = new ArrayList<>();
            Unidentified unidentified = null;
            int delivered = 0;
            Source first = null;
            Source last = null;
            try {
                JsonToken start = p.nextToken();
                if (start != JsonToken.START_OBJECT) {
                    throw new Malformed(start == null ? "the input is empty" : "the event is not a JSON object");
                }
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    boolean records = p.currentName().equals("Records");
                    if (p.nextToken() == JsonToken.VALUE_NULL || !records) {
                        p.skipChildren();
                        continue;
                    }
                    expect(JsonToken.START_ARRAY, "Records is not a JSON array");
                    for (; p.nextToken() != JsonToken.END_ARRAY; delivered++) {
                        try {
                            record();
                        } catch (JsonProcessingException | Malformed e) {
                            throw refused(recordName(delivered) + ": " + problem(e, p), e);
                        }
                        last = arn == null ? null : new Source(eventId, arn);
                        first = first == null ? last : first;
                        String missing = !hasDynamodb ? "dynamodb part"
                                : sequenceNumber == null || sequenceNumber.isBlank() ? "dynamodb.SequenceNumber" : null;
                        if (unidentified == null && missing != null) {
                            unidentified = new Unidentified(delivered, -1, eventId, missing); // the batch's size once read
                        } else if (unidentified == null) {
                            out.add(new ChangeRecord(sequenceNumber, eventName, viewType, keys, image, created, null,
                                    types == null ? null : types(types.toArray(), sequenceNumber)));
                        }
                    }
                }
                if (p.nextToken() != null) {
                    throw new Malformed("more follows the event's JSON object");
                }
            } catch (JsonProcessingException | Malformed e) {
                throw refused(problem(e, p), e);
            }
            Unidentified u = unidentified;
            return new LambdaEvent(out, u == null ? null : new Unidentified(u.position(), delivered, u.eventId(), u.missing()),
                    delivered, first, last);
        }

        /** The record being read, by its place in the batch and what of its identity was read before the problem. */
        private String recordName(int k) {
            String id = (eventId == null ? "" : "eventID " + eventId) + (eventId != null && sequenceNumber != null ? ", " : "")
                    + (sequenceNumber == null ? "" : "sequence number " + sequenceNumber);
            return "record " + (k + 1) + (id.isEmpty() ? "" : " (" + id + ")");
        }

        private void record() throws IOException {
            eventId = eventName = arn = sequenceNumber = viewType = null;
            hasDynamodb = false;
            created = null;
            keys = Map.of();
            image = null;
            types = null;
            expect(JsonToken.START_OBJECT, "the record is not a JSON object");
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken t = p.nextToken();
                switch (name) {
                    case "eventID" -> eventId = text(name);
                    case "eventName" -> eventName = text(name);
                    case "eventSourceARN" -> arn = text(name);
                    case "dynamodb" -> {
                        hasDynamodb = t != JsonToken.VALUE_NULL;
                        if (hasDynamodb) {
                            dynamodb();
                        }
                    }
                    default -> p.skipChildren();
                }
            }
        }

        private void dynamodb() throws IOException {
            expect(JsonToken.START_OBJECT, "dynamodb is not a JSON object");
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken t = p.nextToken();
                switch (name) {
                    case "SequenceNumber" -> sequenceNumber = text("dynamodb.SequenceNumber");
                    case "StreamViewType" -> viewType = text("dynamodb.StreamViewType");
                    case "ApproximateCreationDateTime" -> {
                        if (t != JsonToken.VALUE_NULL && !t.isNumeric()) {
                            throw new Malformed("dynamodb.ApproximateCreationDateTime (epoch seconds) is not a number");
                        }
                        created = t == JsonToken.VALUE_NULL ? null : Instant.ofEpochMilli((long) (p.getDoubleValue() * 1000));
                    }
                    case "Keys" -> keys = t == JsonToken.VALUE_NULL ? Map.of() : map("dynamodb.Keys");
                    case "NewImage" -> image = t == JsonToken.VALUE_NULL ? null : image();
                    default -> p.skipChildren();
                }
            }
        }

        /** {@code a}, {@code n}, and {@code c} unless a list: then its types, into {@link #types}. */
        private Map<String, AttributeValue> image() throws IOException {
            expect(JsonToken.START_OBJECT, "dynamodb.NewImage is not a JSON object");
            Map<String, AttributeValue> read = new HashMap<>(4);
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                p.nextToken();
                if (!(name.equals("a") || name.equals("n") || name.equals("c"))) {
                    p.skipChildren();
                    continue;
                }
                String what = "NewImage." + name;
                expect(JsonToken.START_OBJECT, what + " is not an attribute value (a JSON object)");
                String type = type(what);
                if (name.equals("c") && type.equals("L")) {
                    types = list(what + ".L", this::type);
                } else {
                    read.put(name, value(type, what));
                }
                end(what);
            }
            return read;
        }

        /** An element of {@code c}: a non-empty {@code S}, or the value as it is, for the refusal when the indexer reads it. */
        private Object type() throws IOException {
            expect(JsonToken.START_OBJECT, "NewImage.c.L holds an element that is not an attribute value");
            String type = type("NewImage.c.L");
            String s = type.equals("S") ? string("NewImage.c.L.S") : null;
            Object held = s != null && !s.isEmpty() ? s : s != null ? AttributeValue.fromS(s) : value(type, "NewImage.c.L");
            end("NewImage.c.L");
            return held;
        }

        /** An attribute value's one type, the parser on its object's start; then on the type's value. */
        private String type(String what) throws IOException {
            if (p.nextToken() != JsonToken.FIELD_NAME) {
                throw new Malformed(what + " is an attribute value without a type");
            }
            String type = p.currentName();
            p.nextToken();
            return type;
        }

        /** The end of an attribute value's object: a second type is refused. */
        private void end(String what) throws IOException {
            if (p.nextToken() != JsonToken.END_OBJECT) {
                throw new Malformed(what + " is an attribute value with more than one type");
            }
        }

        /** An attribute value, the parser on its object's start. */
        private AttributeValue value(String what) throws IOException {
            expect(JsonToken.START_OBJECT, what + " is not an attribute value (a JSON object)");
            AttributeValue v = value(type(what), what);
            end(what);
            return v;
        }

        /** The value of a {@code type}, the parser on it. */
        private AttributeValue value(String type, String what) throws IOException {
            String of = what + "." + type;
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
                default -> throw new Malformed(what + " has the type '" + type + "', which DynamoDB does not have");
            };
        }

        private interface Element<T> {
            T read() throws IOException;
        }

        /** A JSON array's elements, the parser on its start. */
        private <T> List<T> list(String what, Element<T> element) throws IOException {
            expect(JsonToken.START_ARRAY, what + " is not a JSON array");
            List<T> out = new ArrayList<>();
            while (p.nextToken() != JsonToken.END_ARRAY) {
                out.add(element.read());
            }
            return out;
        }

        /** A map of attribute values (the keys, an {@code M}), the parser on its object's start. */
        private Map<String, AttributeValue> map(String what) throws IOException {
            expect(JsonToken.START_OBJECT, what + " is not a JSON object");
            Map<String, AttributeValue> out = new LinkedHashMap<>(4); // in the event's order, as messages show it
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                p.nextToken();
                out.put(name, value(what + "." + name));
            }
            return out;
        }

        private String string(String what) throws IOException {
            expect(JsonToken.VALUE_STRING, what + " is not a string");
            return p.getText();
        }

        /** A field that Lambda writes as a string; null for null. */
        private String text(String what) throws IOException {
            return p.currentToken() == JsonToken.VALUE_NULL ? null : string(what);
        }

        private SdkBytes bytes(String what) throws IOException {
            expect(JsonToken.VALUE_STRING, what + " is not a string of base64");
            return SdkBytes.fromByteArrayUnsafe(p.getBinaryValue());
        }

        private boolean bool(String what) throws IOException {
            if (!p.currentToken().isBoolean()) {
                throw new Malformed(what + " is not true or false");
            }
            return p.getBooleanValue();
        }

        private void expect(JsonToken token, String otherwise) {
            if (p.currentToken() != token) {
                throw new Malformed(otherwise);
            }
        }
    }

    /**
     * A Tip's event types: the indexer reads the new events' when it parses the record, older ones only to
     * heal a gap or place a stream; one that is not a non-empty string is refused then, naming the record.
     */
    private static List<String> types(Object[] held, String record) {
        return new AbstractList<>() {
            @Override
            public String get(int k) {
                if (held[Objects.checkIndex(k, held.length)] instanceof String type) {
                    return type;
                }
                throw notAType(String.valueOf(held[k]), k, held.length, record);
            }

            @Override
            public int size() {
                return held.length;
            }
        };
    }
}

package io.appendsfeed.indexer.lambda;

import io.appendsfeed.indexer.ChangeRecord;
import java.io.IOException;
import java.io.InputStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Reads a DynamoDB stream event, as Lambda delivers it (JSON: {@code Records}, each with its
 * {@code eventID}, {@code eventName}, {@code eventSourceARN} and {@code dynamodb} part), straight into
 * the core's {@link ChangeRecord}s, keeping only what the indexer reads: the keys, the sequence number,
 * the view type, the creation time, and of the new image {@code a}, {@code n}, the event types {@code c}
 * and the timestamps {@code t} of the events that matter (the new ones and the one before them). The
 * rest (the events' bodies, unfolds, the old image: most of a Tip's bytes) is stepped over by a
 * {@link JsonScanner} and never becomes a token, a string or an object. The records are the ones
 * {@link LambdaRecords} makes of the runtime's {@code DynamodbEvent} for the same JSON, and the indexer
 * refuses a record the same way from either (the test {@code LambdaEventReaderTest} holds both to that).
 *
 * <p>Names are matched as AWS writes them (case and all). An attribute value holding several types is
 * read as the runtime's event types read it: the first of {@code S}, {@code N}, {@code B}, {@code BOOL},
 * {@code NULL}, {@code M}, {@code L}, {@code SS}, {@code NS}, {@code BS}.
 */
final class LambdaEventReader {

    private LambdaEventReader() {}

    /** A record's identity, for the check of where the batch comes from. */
    record Source(String eventId, String arn) {}

    /**
     * @param converted the records, up to the first without a sequence number (as {@link LambdaRecords#convert})
     * @param delivered how many records the event holds
     * @param first the first record that names its stream's ARN, or null
     * @param last the last record, when it names its stream's ARN, or null
     */
    record Event(LambdaRecords.Converted converted, int delivered, Source first, Source last) {}

    /**
     * @throws IllegalArgumentException when the input is not a DynamoDB stream event's JSON, saying where
     * @throws IOException when the input cannot be read
     */
    static Event read(InputStream in) throws IOException {
        return read(bytes(in));
    }

    /**
     * The input's bytes. The Lambda runtime hands a stream handler a {@code ByteArrayInputStream} over
     * the event it received, which gives its whole array to {@code transferTo} in one write: that array
     * is read in place rather than copied (16 MB for 1,000 equinox-js Tips). Safe because nothing keeps a
     * view of the event past the invocation (a {@code Span} copies its types) and nothing writes to it.
     * Any other stream, or a write of part of an array, is copied as {@code readAllBytes} would.
     */
    static byte[] bytes(InputStream in) throws IOException {
        if (!(in instanceof java.io.ByteArrayInputStream)) {
            return in.readAllBytes();
        }
        Borrowed out = new Borrowed();
        in.transferTo(out);
        return out.bytes();
    }

    /** Keeps the array of a single whole-array write; copies anything else. */
    private static final class Borrowed extends java.io.OutputStream {
        private byte[] whole;
        private java.io.ByteArrayOutputStream copied;

        @Override
        public void write(int b) {
            copy().write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            if (whole == null && copied == null && off == 0 && len == b.length) {
                whole = b;
            } else {
                copy().write(b, off, len);
            }
        }

        private java.io.ByteArrayOutputStream copy() {
            if (copied == null) {
                copied = new java.io.ByteArrayOutputStream();
                if (whole != null) {
                    copied.write(whole, 0, whole.length);
                    whole = null;
                }
            }
            return copied;
        }

        byte[] bytes() {
            return whole != null ? whole : copied == null ? new byte[0] : copied.toByteArray();
        }
    }

    /** @see #read(InputStream) */
    static Event read(byte[] json) {
        JsonScanner p = new JsonScanner(json);
        try {
            Event event = event(p);
            if (!p.atEnd()) {
                throw p.malformed("more follows the event's JSON object");
            }
            return event;
        } catch (JsonScanner.Malformed e) {
            throw notAnEvent(e.getMessage());
        }
    }

    private static final byte[] RECORDS = JsonScanner.ascii("Records");
    private static final byte[] EVENT_ID = JsonScanner.ascii("eventID");
    private static final byte[] EVENT_NAME = JsonScanner.ascii("eventName");
    private static final byte[] EVENT_SOURCE_ARN = JsonScanner.ascii("eventSourceARN");
    private static final byte[] DYNAMODB = JsonScanner.ascii("dynamodb");
    private static final byte[] SEQUENCE_NUMBER = JsonScanner.ascii("SequenceNumber");
    private static final byte[] STREAM_VIEW_TYPE = JsonScanner.ascii("StreamViewType");
    private static final byte[] CREATED = JsonScanner.ascii("ApproximateCreationDateTime");
    private static final byte[] KEYS = JsonScanner.ascii("Keys");
    private static final byte[] NEW_IMAGE = JsonScanner.ascii("NewImage");

    private static Event event(JsonScanner p) {
        p.startObject("the event");
        List<ChangeRecord> out = new ArrayList<>();
        int delivered = 0;
        int unidentifiedAt = -1;
        String unidentifiedId = null;
        String missing = null;
        Source first = null;
        Source last = null;
        RecordReader r = new RecordReader();
        for (boolean firstMember = true; p.nextMember(firstMember); firstMember = false) {
            if (!p.nameIs(RECORDS)) {
                p.skipValue();
                continue;
            }
            if (p.nullNext()) {
                continue;
            }
            p.startArray("Records");
            for (boolean firstRecord = true; p.nextElement(firstRecord); firstRecord = false) {
                try {
                    r.read(p, unidentifiedAt < 0);
                } catch (JsonScanner.Malformed e) {
                    throw notAnEvent("record " + (delivered + 1) + ": " + e.getMessage());
                }
                if (r.arn != null) {
                    last = new Source(r.eventId, r.arn);
                    if (first == null) {
                        first = last;
                    }
                } else {
                    last = null;
                }
                if (unidentifiedAt < 0) {
                    String noId = !r.hasDynamodb ? "dynamodb part"
                            : r.sequenceNumber == null || r.sequenceNumber.isBlank() ? "dynamodb.SequenceNumber" : null;
                    if (noId != null) {
                        unidentifiedAt = delivered;
                        unidentifiedId = r.eventId;
                        missing = noId;
                    } else {
                        out.add(r.record());
                    }
                }
                delivered++;
            }
        }
        LambdaRecords.Unidentified unidentified = unidentifiedAt < 0 ? null
                : new LambdaRecords.Unidentified(unidentifiedAt, delivered, unidentifiedId, missing);
        return new Event(new LambdaRecords.Converted(out, unidentified), delivered, first, last);
    }

    /** One record's fields, read into this reused holder. */
    private static final class RecordReader {
        String eventId;
        String eventName;
        String arn;
        boolean hasDynamodb;
        String sequenceNumber;
        String viewType;
        Instant created;
        Map<String, AttributeValue> keys;
        final ImageReader image = new ImageReader();
        boolean hasImage;

        void read(JsonScanner p, boolean convert) {
            eventId = eventName = arn = sequenceNumber = viewType = null;
            hasDynamodb = hasImage = false;
            created = null;
            keys = null;
            p.startObject("the record");
            for (boolean first = true; p.nextMember(first); first = false) {
                if (p.nameIs(EVENT_ID)) {
                    eventId = p.scalarText("eventID");
                } else if (p.nameIs(EVENT_NAME)) {
                    eventName = p.scalarText("eventName");
                } else if (p.nameIs(EVENT_SOURCE_ARN)) {
                    arn = p.scalarText("eventSourceARN");
                } else if (p.nameIs(DYNAMODB)) {
                    if (!p.nullNext()) {
                        hasDynamodb = true;
                        dynamodb(p, convert);
                    }
                } else {
                    p.skipValue();
                }
            }
        }

        private void dynamodb(JsonScanner p, boolean convert) {
            p.startObject("dynamodb");
            for (boolean first = true; p.nextMember(first); first = false) {
                if (p.nameIs(SEQUENCE_NUMBER)) {
                    sequenceNumber = p.scalarText("dynamodb.SequenceNumber");
                } else if (p.nameIs(STREAM_VIEW_TYPE)) {
                    viewType = p.scalarText("dynamodb.StreamViewType");
                } else if (p.nameIs(CREATED)) {
                    created = p.nullNext() ? null
                            : Instant.ofEpochMilli((long) (p.number("dynamodb.ApproximateCreationDateTime (epoch seconds)") * 1000));
                } else if (p.nameIs(KEYS) && convert) {
                    keys = p.nullNext() ? null : map(p, "dynamodb.Keys");
                } else if (p.nameIs(NEW_IMAGE) && convert) {
                    if (!p.nullNext()) {
                        hasImage = true;
                        image.read(p);
                    }
                } else {
                    p.skipValue();
                }
            }
        }

        ChangeRecord record() {
            return new ChangeRecord(sequenceNumber, eventName, viewType, keys == null ? Map.of() : keys,
                    hasImage ? image.attributes() : null, created, hasImage ? image.times() : null, hasImage ? image.types(sequenceNumber) : null);
        }
    }

    private static final byte[] L = JsonScanner.ascii("L");
    private static final byte[] M = JsonScanner.ascii("M");
    private static final byte[] S = JsonScanner.ascii("S");

    /**
     * The new image's {@code a}, {@code n}, {@code c} and event times. Of {@code c} and {@code e} (a Tip
     * holds dozens of events; a write appends one or two), only where each element starts is noted: an
     * event type or time becomes a string when the indexer asks for it, as {@link LambdaRecords} reads
     * them from the runtime's record. {@code c} without a list is kept as an attribute, for the parser to
     * say what is wrong with it.
     */
    private static final class ImageReader {
        private final List<Map.Entry<String, AttributeValue>> attributes = new ArrayList<>(4);
        private int[] types;
        private int typeCount;
        private int[] times;
        private int timeCount;
        private byte[] json;

        void read(JsonScanner p) {
            attributes.clear();
            types = times = null;
            json = p.bytes();
            p.startObject("dynamodb.NewImage");
            for (boolean first = true; p.nextMember(first); first = false) {
                if (p.nameIs('a')) {
                    attributes.add(Map.entry("a", value(p, "NewImage.a")));
                } else if (p.nameIs('n')) {
                    attributes.add(Map.entry("n", value(p, "NewImage.n")));
                } else if (p.nameIs('c')) {
                    types(p);
                } else if (p.nameIs('e')) {
                    times(p);
                } else {
                    p.skipValue();
                }
            }
        }

        Map<String, AttributeValue> attributes() {
            @SuppressWarnings("unchecked")
            Map.Entry<String, AttributeValue>[] entries = attributes.toArray(new Map.Entry[0]);
            return Map.ofEntries(entries);
        }

        /** @param record the record's sequence number, for the message about a type that is not a string */
        List<String> types(String record) {
            return types == null ? null : new Types(json, types, typeCount, record);
        }

        List<String> times() {
            return times == null ? null : new Times(json, times, timeCount);
        }

        /** {@code c}: where its {@code L}'s elements start; without an {@code L}, {@code c} kept as an attribute. */
        private void types(JsonScanner p) {
            p.startObject("NewImage.c (an attribute value)");
            Attr attr = new Attr();
            for (boolean first = true; p.nextMember(first); first = false) {
                if (p.nameIs(L) && p.arrayNext()) {
                    types = elements(p, "NewImage.c.L");
                    typeCount = count;
                } else if (p.nameIs(L) && p.nullNext()) {
                    types = null;
                } else {
                    attr.set(p, "NewImage.c");
                }
            }
            if (types == null) {
                attributes.add(Map.entry("c", attr.value()));
            }
        }

        /** {@code e}: where its {@code L}'s events start; without an {@code L}, no times (the parser finds none either). */
        private void times(JsonScanner p) {
            p.startObject("NewImage.e (an attribute value)");
            times = null;
            for (boolean first = true; p.nextMember(first); first = false) {
                if (p.nameIs(L) && p.arrayNext()) {
                    times = elements(p, "NewImage.e.L");
                    timeCount = count;
                } else {
                    if (p.nameIs(L)) {
                        times = null;
                    }
                    p.skipValue();
                }
            }
        }

        private int count;

        private final int[] counted = new int[1];

        /** Where each element of the array starts, stepping over them; their number in {@link #count}. */
        private int[] elements(JsonScanner p, String what) {
            if (!p.arrayNext()) {
                p.startArray(what); // throws, saying what is not an array
            }
            int[] at = p.elementStarts(new int[64], counted);
            count = counted[0];
            return at;
        }
    }

    /** The elements of an array of the event's JSON, by where each starts, each read when asked for. */
    private abstract static class Elements extends java.util.AbstractList<String> {
        final byte[] json;
        final int[] at;
        private final int size;

        Elements(byte[] json, int[] at, int size) {
            this.json = json;
            this.at = at;
            this.size = size;
        }

        @Override
        public final int size() {
            return size;
        }
    }

    /** A Tip's event types, each read from the event's JSON when asked for. */
    private static final class Types extends Elements {
        private final String record;

        Types(byte[] json, int[] at, int size, String record) {
            super(json, at, size);
            this.record = record;
        }

        /** @throws IllegalArgumentException, naming the record, for an element without a non-empty {@code S} (as {@link LambdaRecords}) */
        @Override
        public String get(int k) {
            java.util.Objects.checkIndex(k, size());
            JsonScanner p = new JsonScanner(json, at[k]);
            if (!p.objectNext()) {
                p.skipValue();
                throw LambdaRecords.notAType(p.decode(at[k], p.offset(), false), k, size(), record);
            }
            Attr type = Attr.read(p, "NewImage.c.L (an attribute value)");
            if (type.s == null || type.s.isEmpty()) {
                throw LambdaRecords.notAType(type.value().toString(), k, size(), record);
            }
            return type.s;
        }
    }

    /** A Tip's events' timestamps: the {@code S} of each event's {@code M}'s {@code t}, read when asked for; null where there is none. */
    private static final class Times extends Elements {
        Times(byte[] json, int[] at, int size) {
            super(json, at, size);
        }

        @Override
        public String get(int k) {
            java.util.Objects.checkIndex(k, size());
            JsonScanner p = new JsonScanner(json, at[k]);
            if (!p.objectNext()) {
                return null;
            }
            p.startObject("an event");
            for (boolean first = true; p.nextMember(first); first = false) {
                if (p.nameIs(M) && p.objectNext()) {
                    p.startObject("an event's M");
                    for (boolean firstField = true; p.nextMember(firstField); firstField = false) {
                        if (p.nameIs('t') && p.objectNext()) {
                            return Attr.read(p, "an event's t").s;
                        }
                        p.skipValue();
                    }
                    return null;
                }
                p.skipValue();
            }
            return null;
        }
    }

    private static final byte[] BOOL = JsonScanner.ascii("BOOL");
    private static final byte[] NULL = JsonScanner.ascii("NULL");
    private static final byte[] SS = JsonScanner.ascii("SS");
    private static final byte[] NS = JsonScanner.ascii("NS");
    private static final byte[] BS = JsonScanner.ascii("BS");

    /** An attribute value's JSON object: its types as given, resolved as {@link LambdaRecords#value} resolves the runtime's. */
    private static final class Attr {
        String s;
        String n;
        String b;
        Boolean bool;
        Boolean nul;
        Map<String, AttributeValue> m;
        List<AttributeValue> l;
        List<String> ss;
        List<String> ns;
        List<String> bs;

        /** An attribute value, the scanner on its object. */
        static Attr read(JsonScanner p, String what) {
            Attr attr = new Attr();
            p.startObject(what);
            for (boolean first = true; p.nextMember(first); first = false) {
                attr.set(p, what);
            }
            return attr;
        }

        /** The member the scanner has just named. */
        void set(JsonScanner p, String what) {
            if (p.nameIs(S)) {
                s = p.scalarText(what);
            } else if (p.nameIs('N')) {
                n = p.scalarText(what);
            } else if (p.nameIs('B')) {
                b = p.scalarText(what);
            } else if (p.nameIs(BOOL)) {
                bool = p.bool(what);
            } else if (p.nameIs(NULL)) {
                nul = p.bool(what);
            } else if (p.nameIs(M)) {
                m = p.nullNext() ? null : map(p, what);
            } else if (p.nameIs(L)) {
                l = p.nullNext() ? null : list(p, what);
            } else if (p.nameIs(SS)) {
                ss = strings(p, what);
            } else if (p.nameIs(NS)) {
                ns = strings(p, what);
            } else if (p.nameIs(BS)) {
                bs = strings(p, what);
            } else {
                p.skipValue();
            }
        }

        AttributeValue value() {
            if (s != null) return AttributeValue.fromS(s);
            if (n != null) return AttributeValue.fromN(n);
            if (b != null) return AttributeValue.fromB(SdkBytes.fromByteArrayUnsafe(Base64.getMimeDecoder().decode(b)));
            if (bool != null) return AttributeValue.fromBool(bool);
            if (nul != null) return AttributeValue.fromNul(nul);
            if (m != null) return AttributeValue.fromM(m);
            if (l != null) return AttributeValue.fromL(l);
            if (ss != null) return AttributeValue.fromSs(ss);
            if (ns != null) return AttributeValue.fromNs(ns);
            if (bs != null) return AttributeValue.fromBs(bs.stream()
                    .map(x -> SdkBytes.fromByteArrayUnsafe(Base64.getMimeDecoder().decode(x))).toList());
            // an empty value: kept visible as NULL so that the parser names the attribute
            return AttributeValue.fromNul(true);
        }
    }

    private static AttributeValue value(JsonScanner p, String what) {
        return Attr.read(p, what).value();
    }

    /** A map of attribute values (keys, an {@code M}). */
    private static Map<String, AttributeValue> map(JsonScanner p, String what) {
        p.startObject(what);
        java.util.LinkedHashMap<String, AttributeValue> entries = new java.util.LinkedHashMap<>(4);
        for (boolean first = true; p.nextMember(first); first = false) {
            String name = p.name();
            entries.put(name, value(p, what)); // a name given twice: the last one, as a JSON object reader keeps it
        }
        return Map.copyOf(entries);
    }

    private static List<AttributeValue> list(JsonScanner p, String what) {
        p.startArray(what);
        List<AttributeValue> out = new ArrayList<>();
        for (boolean first = true; p.nextElement(first); first = false) {
            out.add(value(p, what));
        }
        return out;
    }

    private static List<String> strings(JsonScanner p, String what) {
        if (p.nullNext()) {
            return null;
        }
        p.startArray(what);
        List<String> out = new ArrayList<>();
        for (boolean first = true; p.nextElement(first); first = false) {
            out.add(p.scalarText(what));
        }
        return out;
    }

    private static IllegalArgumentException notAnEvent(String problem) {
        return new IllegalArgumentException("the Lambda event is not a DynamoDB stream event: " + problem
                + "; is the function mapped to the store table's DynamoDB stream? Nothing was written");
    }
}

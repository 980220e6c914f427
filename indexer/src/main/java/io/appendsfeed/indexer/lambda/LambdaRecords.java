package io.appendsfeed.indexer.lambda;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.events.models.dynamodb.StreamRecord;
import io.appendsfeed.indexer.ChangeRecord;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Converts the Lambda event's records (with their v1-style attribute values) into the core's
 * {@link ChangeRecord}. A few lines here instead of the events-sdk-transformer dependency.
 */
public final class LambdaRecords {

    private LambdaRecords() {}

    /** @throws IllegalArgumentException for a record without a {@code dynamodb} part or sequence number */
    public static ChangeRecord of(DynamodbEvent.DynamodbStreamRecord r) {
        return of(r, false);
    }

    /**
     * @param detach take the events' timestamps out of the image as strings, so that the record holds
     *               nothing of the image's event maps (which the caller may then release); otherwise a
     *               view that reads them from the image when asked
     */
    private static ChangeRecord of(DynamodbEvent.DynamodbStreamRecord r, boolean detach) {
        StreamRecord d = r.getDynamodb();
        if (d == null || d.getSequenceNumber() == null || d.getSequenceNumber().isBlank()) {
            throw new IllegalArgumentException("Lambda stream record " + r.getEventID() + " has no dynamodb.SequenceNumber;"
                    + " is the function subscribed to a DynamoDB stream?");
        }
        var image = d.getNewImage();
        List<String> types = image == null ? null : types(image.get("c"), d.getSequenceNumber());
        return new ChangeRecord(d.getSequenceNumber(), r.getEventName(), d.getStreamViewType(), map(d.getKeys()),
                image == null ? null : image(image, types == null),
                d.getApproximateCreationDateTime() == null ? null : d.getApproximateCreationDateTime().toInstant(),
                image == null ? null : detach ? copyOfTimes(image.get("e"), appended(image.get("a"))) : viewOfTimes(image.get("e")), types);
    }

    /**
     * The records of one invocation, converted up to the first that has no sequence number (no
     * {@code dynamodb} part, or no {@code dynamodb.SequenceNumber}). Lambda knows a record only by its
     * sequence number, so the core cannot name that one as where to resume: the handler reports it
     * itself.
     *
     * @param records the records before it (all of them when every record has one)
     * @param unidentified that record, or null
     */
    public record Converted(List<ChangeRecord> records, Unidentified unidentified) {
        public Converted {
            records = List.copyOf(records);
        }
    }

    /** A record delivered without a sequence number: its place in the batch (0-based), its event id and what is missing. */
    public record Unidentified(int position, int batchSize, String eventId, String missing) {
        @Override
        public String toString() {
            return "Lambda stream record " + eventId + " (" + (position + 1) + " of " + batchSize + " in the batch) has no "
                    + missing + "; is the function subscribed to a DynamoDB stream?";
        }
    }

    public static Converted convert(DynamodbEvent event) {
        return convert(event, false);
    }

    /**
     * Records of at least this many bytes in all ({@code SizeBytes}, as DynamoDB gives it; 8 KiB for a
     * record without) are converted by {@link #convertReleasing}: about 250 records of equinox-js Tips.
     */
    public static final long RELEASE_BYTES = 4L << 20;
    private static final long SIZE_UNKNOWN = 8L << 10;

    /**
     * Converts the records, and when they are large ({@link #RELEASE_BYTES} in all) drops each
     * record's images from the event once converted (the records keep their keys and sequence
     * numbers). What the indexer needs of an image is a few hundred bytes; the rest (the Tip's event
     * bodies, decoded by the Lambda runtime into maps, strings and buffers) is most of the event, which
     * the runtime holds until the handler returns. A collection during the batch would copy all of it:
     * measured at 1,000 records of equinox-js Tips (16 to 25 MB of JSON), a pause of about 100 ms in one
     * batch of four, against 15 ms for the batch's own work. Below that size, taking the timestamps out
     * of the images (which releasing needs) costs more than the collections it saves (see
     * samples/BENCHMARKS.md, "Indexer profile").
     */
    public static Converted convertReleasing(DynamodbEvent event) {
        long bytes = 0;
        if (event.getRecords() != null) {
            for (DynamodbEvent.DynamodbStreamRecord r : event.getRecords()) {
                Long size = r.getDynamodb() == null ? null : r.getDynamodb().getSizeBytes();
                bytes += size == null ? SIZE_UNKNOWN : size;
            }
        }
        return convert(event, bytes >= RELEASE_BYTES);
    }

    /** @param release drop each record's images from the event once converted: see {@link #convertReleasing} */
    public static Converted convert(DynamodbEvent event, boolean release) {
        List<DynamodbEvent.DynamodbStreamRecord> records = event.getRecords() == null ? List.of() : event.getRecords();
        List<ChangeRecord> out = new ArrayList<>(records.size());
        int k = 0;
        for (DynamodbEvent.DynamodbStreamRecord r : records) { // the runtime's lists may be linked: no get(k)
            StreamRecord d = r.getDynamodb();
            if (d == null || d.getSequenceNumber() == null || d.getSequenceNumber().isBlank()) {
                return new Converted(out, new Unidentified(k, records.size(), r.getEventID(),
                        d == null ? "dynamodb part" : "dynamodb.SequenceNumber"));
            }
            out.add(of(r, release));
            if (release) {
                d.setNewImage(null);
                d.setOldImage(null);
            }
            k++;
        }
        return new Converted(out, null);
    }

    /**
     * What the parser reads of a Tip image: {@code a} and {@code n}, and {@code c} unless its types
     * were taken out as strings ({@code withTypes} false). The events ({@code e}: bodies, most of a
     * Tip's bytes and most of its attribute values) are not converted: their timestamps go in
     * {@link ChangeRecord#eventTimes()}. Profiled on batches of 1,000 records, converting the event
     * lists, then the types, was most of the handler's own CPU.
     */
    static Map<String, AttributeValue> image(Map<String, com.amazonaws.services.lambda.runtime.events.models.dynamodb.AttributeValue> m,
                                             boolean withTypes) {
        List<String> names = withTypes ? PARSED : PARSED_BUT_TYPES;
        @SuppressWarnings("unchecked")
        Map.Entry<String, AttributeValue>[] out = new Map.Entry[names.size() + 1];
        int n = 0;
        for (String name : names) {
            var v = m.get(name);
            if (v != null) {
                out[n++] = Map.entry(name, value(v));
            }
        }
        var e = m.get("e");
        if (e != null && e.getL() == null) {
            out[n++] = Map.entry("e", value(e)); // not a list: kept, for the parser to name
        }
        // an immutable map, which ChangeRecord then keeps as it is rather than copying
        return Map.ofEntries(n == out.length ? out : Arrays.copyOf(out, n));
    }

    /** Not {@code p} and {@code i}: the parser reads the key from the record's keys. */
    private static final List<String> PARSED = List.of("a", "n", "c");
    private static final List<String> PARSED_BUT_TYPES = List.of("a", "n");

    /**
     * The {@code t} of the events the write appended and of the one before them (null where it has
     * none, or is no string; every other event's reads as null), the strings only: the events' maps,
     * bodies included, are not kept; null when {@code e} is not a list. Those are the times the
     * indexer reads (the span's write time, and where the stream stood before it); placing a stream
     * whose records were lost reads older ones from the store table. Profiled on batches of 1,000
     * equinox-js Tips (56 events each on average, of which about 1.5 new), copying every event's time
     * was more than half of the handler's CPU: each is a look-up in a map the runtime just built.
     *
     * @param appended the Tip's {@code a}, or -1 when unknown: then every time is copied
     */
    private static List<String> copyOfTimes(com.amazonaws.services.lambda.runtime.events.models.dynamodb.AttributeValue e,
                                            long appended) {
        if (e == null || e.getL() == null) {
            return null;
        }
        List<com.amazonaws.services.lambda.runtime.events.models.dynamodb.AttributeValue> events = e.getL();
        int size = events.size();
        int kept = appended < 0 || appended >= size ? size : (int) appended + 1;
        String[] out = new String[kept];
        var it = events.listIterator(size); // from the end: the runtime's lists may be linked
        for (int k = kept - 1; k >= 0; k--) {
            out[k] = time(it.previous());
        }
        int from = size - kept;
        return new java.util.AbstractList<>() {
            @Override
            public String get(int k) {
                java.util.Objects.checkIndex(k, size);
                return k < from ? null : out[k - from];
            }

            @Override
            public int size() {
                return size;
            }
        };
    }

    /** The Tip's {@code a} as a number, or -1 when absent or unreadable (the parser names what is wrong). */
    private static long appended(com.amazonaws.services.lambda.runtime.events.models.dynamodb.AttributeValue a) {
        if (a == null || a.getN() == null) {
            return -1;
        }
        try {
            return Long.parseLong(a.getN());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /**
     * A view of each event's {@code t} (null where it has none, or is no string), read when asked
     * (the parser asks for the new events' only, at the end of the list); null when {@code e} is not a list.
     */
    private static List<String> viewOfTimes(com.amazonaws.services.lambda.runtime.events.models.dynamodb.AttributeValue e) {
        if (e == null || e.getL() == null) {
            return null;
        }
        List<com.amazonaws.services.lambda.runtime.events.models.dynamodb.AttributeValue> events = e.getL();
        return new java.util.AbstractList<>() {
            @Override
            public String get(int k) {
                return time(events.get(k));
            }

            @Override
            public int size() {
                return events.size();
            }
        };
    }

    /** An event's {@code t}: null where it has none, or it is no string. */
    private static String time(com.amazonaws.services.lambda.runtime.events.models.dynamodb.AttributeValue event) {
        var t = event == null || event.getM() == null ? null : event.getM().get("t");
        return t == null ? null : t.getS();
    }

    /**
     * The event types {@code c} as a read-only view, each read from the record when asked for (the
     * indexer asks for the new events' types, and for the others only to heal a gap from the Tip or to
     * place a stream); null when there is no {@code c} or it is not a list (then it is converted, for the
     * parser to name what is wrong). Reading every type up front was the largest part of converting a
     * large batch: a Tip holds 56 types on average in the benchmark's store, a write appends 1.5. The
     * list's references are copied (the runtime's list may be linked), the elements are not.
     *
     * @throws IllegalArgumentException from {@code get}, naming the record, for an element that is not a
     *         non-empty string
     */
    private static List<String> types(com.amazonaws.services.lambda.runtime.events.models.dynamodb.AttributeValue c, String record) {
        if (c == null || c.getL() == null) {
            return null;
        }
        Object[] types = c.getL().toArray();
        return new java.util.AbstractList<>() {
            @Override
            public String get(int k) {
                var t = (com.amazonaws.services.lambda.runtime.events.models.dynamodb.AttributeValue) types[k];
                if (t == null || t.getS() == null || t.getS().isEmpty()) {
                    throw notAType(String.valueOf(t), k, types.length, record);
                }
                return t.getS();
            }

            @Override
            public int size() {
                return types.length;
            }
        };
    }

    /** The refusal of the {@code k}-th (0-based) of {@code size} event types, which is {@code held} and not a non-empty string. */
    static IllegalArgumentException notAType(String held, int k, int size, String record) {
        return new IllegalArgumentException("attribute c holds " + held + " where a non-empty string (S) event type"
                + " belongs (event type " + (k + 1) + " of " + size + ", record " + record + "); the item is"
                + " not of the store format: repair its c, or send the record to the on-failure destination");
    }

    static Map<String, AttributeValue> map(Map<String, com.amazonaws.services.lambda.runtime.events.models.dynamodb.AttributeValue> m) {
        if (m == null) {
            return Map.of();
        }
        @SuppressWarnings("unchecked")
        Map.Entry<String, AttributeValue>[] out = new Map.Entry[m.size()];
        int n = 0;
        for (var e : m.entrySet()) {
            out[n++] = Map.entry(e.getKey(), value(e.getValue()));
        }
        return Map.ofEntries(out); // immutable: ChangeRecord keeps it as it is
    }

    static AttributeValue value(com.amazonaws.services.lambda.runtime.events.models.dynamodb.AttributeValue v) {
        if (v.getS() != null) return AttributeValue.fromS(v.getS());
        if (v.getN() != null) return AttributeValue.fromN(v.getN());
        if (v.getB() != null) return AttributeValue.fromB(SdkBytes.fromByteBuffer(v.getB().duplicate()));
        if (v.getBOOL() != null) return AttributeValue.fromBool(v.getBOOL());
        if (v.getNULL() != null) return AttributeValue.fromNul(v.getNULL());
        if (v.getM() != null) return AttributeValue.fromM(map(v.getM()));
        if (v.getL() != null) return AttributeValue.fromL(v.getL().stream().map(LambdaRecords::value).toList());
        if (v.getSS() != null) return AttributeValue.fromSs(v.getSS());
        if (v.getNS() != null) return AttributeValue.fromNs(v.getNS());
        if (v.getBS() != null) return AttributeValue.fromBs(v.getBS().stream().map(b -> SdkBytes.fromByteBuffer(b.duplicate())).toList());
        // an empty value: keep it visible as NULL so that the parser names the attribute
        return AttributeValue.fromNul(true);
    }
}

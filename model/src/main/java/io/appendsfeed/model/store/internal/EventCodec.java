package io.appendsfeed.model.store.internal;

import static io.appendsfeed.model.store.internal.Fields.CAUSATION;
import static io.appendsfeed.model.store.internal.Fields.CORRELATION;
import static io.appendsfeed.model.store.internal.Fields.DATA;
import static io.appendsfeed.model.store.internal.Fields.DATA_ENCODING;
import static io.appendsfeed.model.store.internal.Fields.META;
import static io.appendsfeed.model.store.internal.Fields.META_ENCODING;
import static io.appendsfeed.model.store.internal.Fields.T;
import static io.appendsfeed.model.store.internal.Fields.UNFOLD_INDEX;
import static io.appendsfeed.model.store.internal.Fields.UNFOLD_TYPE;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.BodyDecodingException;
import io.appendsfeed.model.store.EventData;
import io.appendsfeed.model.store.StoreFormatException;
import io.appendsfeed.model.store.StoredEvent;
import io.appendsfeed.model.store.StoredUnfold;
import io.appendsfeed.model.store.Unfold;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** One element of {@code e} or {@code u}: to and from its stored map. */
public final class EventCodec {

    private EventCodec() {}

    /** An element of {@code e}; zero encodings, absent meta and null ids are omitted. */
    public static AttributeValue event(EventData event, Instant now, boolean compress) {
        Map<String, AttributeValue> m = new LinkedHashMap<>();
        m.put(T, AttributeValue.fromS(Timestamps.format(event.timestamp() == null ? now : event.timestamp())));
        bodies(m, event.data(), event.meta(), compress);
        if (event.correlationId() != null) {
            m.put(CORRELATION, AttributeValue.fromS(event.correlationId()));
        }
        if (event.causationId() != null) {
            m.put(CAUSATION, AttributeValue.fromS(event.causationId()));
        }
        return AttributeValue.fromM(m);
    }

    /** An element of {@code u}; {@code version} is the stream version this write leaves. */
    public static AttributeValue unfold(Unfold unfold, long version, Instant now, boolean compress) {
        Map<String, AttributeValue> m = new LinkedHashMap<>();
        m.put(UNFOLD_INDEX, AttributeValue.fromN(Long.toString(version)));
        m.put(T, AttributeValue.fromS(Timestamps.format(now)));
        m.put(UNFOLD_TYPE, AttributeValue.fromS(unfold.type()));
        bodies(m, unfold.data(), unfold.meta(), compress);
        return AttributeValue.fromM(m);
    }

    private static void bodies(Map<String, AttributeValue> m, byte[] data, byte[] meta, boolean compress) {
        Bodies.Encoded d = Bodies.encode(data, compress);
        m.put(DATA, AttributeValue.fromB(SdkBytes.fromByteArray(d.bytes())));
        if (d.encoding() != Bodies.RAW) {
            m.put(DATA_ENCODING, AttributeValue.fromN(Integer.toString(d.encoding())));
        }
        if (meta != null) {
            Bodies.Encoded md = Bodies.encode(meta, compress);
            m.put(META, AttributeValue.fromB(SdkBytes.fromByteArray(md.bytes())));
            if (md.encoding() != Bodies.RAW) {
                m.put(META_ENCODING, AttributeValue.fromN(Integer.toString(md.encoding())));
            }
        }
    }

    /**
     * @param entry the element of {@code e}, or null when the read asked for types only
     * @param rangeKey the item's {@code i}, for errors
     */
    public static StoredEvent storedEvent(StreamName stream, long rangeKey, long index, String type, AttributeValue entry) {
        if (entry == null) {
            return new StoredEvent(stream, index, null, type, null, null, null, null);
        }
        Map<String, AttributeValue> m = map(entry, stream, rangeKey, "an element of e");
        return new StoredEvent(stream, index, timestamp(m, stream, rangeKey), type,
                body(m, DATA, DATA_ENCODING, stream, index, "e"), body(m, META, META_ENCODING, stream, index, "e"),
                string(m.get(CORRELATION)), string(m.get(CAUSATION)));
    }

    public static StoredUnfold storedUnfold(StreamName stream, AttributeValue entry) {
        long rangeKey = Fields.TIP_INDEX;
        Map<String, AttributeValue> m = map(entry, stream, rangeKey, "an element of u");
        AttributeValue i = m.get(UNFOLD_INDEX);
        AttributeValue c = m.get(UNFOLD_TYPE);
        if (i == null || i.n() == null || c == null || c.s() == null) {
            throw new StoreFormatException(stream, rangeKey, "an unfold lacks its index 'i' (N) or type 'c' (S): " + entry);
        }
        long index = Long.parseLong(i.n());
        byte[] data = body(m, DATA, DATA_ENCODING, stream, index, "u");
        return new StoredUnfold(index, timestamp(m, stream, rangeKey), c.s(), data == null ? new byte[0] : data,
                body(m, META, META_ENCODING, stream, index, "u"));
    }

    private static Map<String, AttributeValue> map(AttributeValue v, StreamName stream, long rangeKey, String what) {
        if (v.type() != AttributeValue.Type.M) {
            throw new StoreFormatException(stream, rangeKey, what + " is not a map: " + v);
        }
        return v.m();
    }

    private static Instant timestamp(Map<String, AttributeValue> m, StreamName stream, long rangeKey) {
        AttributeValue t = m.get(T);
        if (t == null || t.s() == null) {
            throw new StoreFormatException(stream, rangeKey, "an event or unfold lacks its timestamp 't' (S)");
        }
        try {
            return Timestamps.parse(t.s());
        } catch (DateTimeParseException e) {
            throw new StoreFormatException(stream, rangeKey, "timestamp '" + t.s() + "' is not ISO-8601", e);
        }
    }

    /** Null when the body is absent, except data, which reads as empty. */
    private static byte[] body(Map<String, AttributeValue> m, String field, String encodingField,
                               StreamName stream, long index, String where) {
        AttributeValue v = m.get(field);
        if (v == null) {
            return DATA.equals(field) ? new byte[0] : null;
        }
        AttributeValue enc = m.get(encodingField);
        int encoding = enc == null ? Bodies.RAW : encoding(enc, encodingField, stream, index, where + "." + field);
        byte[] stored;
        if (v.b() != null) {
            stored = v.b().asByteArray();
        } else if (v.s() != null) {
            stored = v.s().getBytes(java.nio.charset.StandardCharsets.UTF_8); // tolerate JSON stored as S
        } else {
            return null;
        }
        return Bodies.decode(stored, encoding, stream, index, where + "." + field);
    }

    /** Never guessed: a body read in the wrong encoding would be handed over as garbage. */
    private static int encoding(AttributeValue enc, String encodingField, StreamName stream, long index, String where) {
        try {
            if (enc.n() != null) {
                return Integer.parseInt(enc.n());
            }
        } catch (NumberFormatException e) {
            throw new BodyDecodingException(stream, index, where, -1, "its encoding '" + encodingField
                    + "' is not an integer: " + enc.n(), e);
        }
        throw new BodyDecodingException(stream, index, where, -1, "its encoding '" + encodingField
                + "' is not a number (N): " + enc, null);
    }

    private static String string(AttributeValue v) {
        return v == null ? null : v.s();
    }
}

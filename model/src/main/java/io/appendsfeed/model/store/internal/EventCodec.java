package io.appendsfeed.model.store.internal;

import static io.appendsfeed.model.store.StoreItems.CAUSATION;
import static io.appendsfeed.model.store.StoreItems.CORRELATION;
import static io.appendsfeed.model.store.StoreItems.DATA;
import static io.appendsfeed.model.store.StoreItems.DATA_ENCODING;
import static io.appendsfeed.model.store.StoreItems.META;
import static io.appendsfeed.model.store.StoreItems.META_ENCODING;
import static io.appendsfeed.model.store.StoreItems.TIME;
import static io.appendsfeed.model.store.StoreItems.TIP_INDEX;
import static io.appendsfeed.model.store.StoreItems.UNFOLD_INDEX;
import static io.appendsfeed.model.store.StoreItems.UNFOLD_TYPE;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.BodyDecodingException;
import io.appendsfeed.model.store.EventData;
import io.appendsfeed.model.store.StoreFormatException;
import io.appendsfeed.model.store.StoredEvent;
import io.appendsfeed.model.store.StoredUnfold;
import io.appendsfeed.model.store.Unfold;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;
import org.brotli.dec.BrotliInputStream;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Elements of {@code e} and {@code u} to and from their stored maps, and the body encodings. */
public final class EventCodec {

    /** Body encodings, fixed by the format: 0 raw UTF-8 JSON, 1 raw deflate (RFC 1951), 2 Brotli. */
    public static final int RAW = 0;
    public static final int DEFLATE = 1;
    public static final int BROTLI = 2;

    /** The {@code t} every implementation of the format reads: milliseconds, UTC, {@code Z}. */
    private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    private EventCodec() {}

    static String timestamp(Instant t) {
        return TIMESTAMP.format(t);
    }

    /** A {@code t} as any writer writes it: 0 to 9 fractional digits, {@code Z}, an offset ({@code +00:00} from .NET) or none (UTC). */
    static Instant parseTimestamp(String text) {
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException withOffsetOrZ) {
            try {
                return LocalDateTime.parse(text).toInstant(ZoneOffset.UTC);
            } catch (DateTimeParseException e) {
                e.addSuppressed(withOffsetOrZ);
                throw e;
            }
        }
    }

    /** Events' {@code e} entries and {@code c} types, and the item-size bytes both add to the item that holds them. */
    record Entries(List<AttributeValue> entries, List<AttributeValue> types, long bytes) {
        static final Entries NONE = new Entries(List.of(), List.of(), 0);
    }

    static Entries entries(List<EventData> events, Instant now, boolean compress) {
        List<AttributeValue> entries = new ArrayList<>(events.size());
        List<AttributeValue> types = new ArrayList<>(events.size());
        long bytes = 0;
        for (EventData event : events) {
            AttributeValue entry = event(event, now, compress);
            AttributeValue type = AttributeValue.fromS(event.type());
            entries.add(entry);
            types.add(type);
            bytes += ItemSize.element(entry) + ItemSize.element(type);
        }
        return new Entries(entries, types, bytes);
    }

    /** An element of {@code e}; zero encodings, absent meta and null ids are omitted. */
    public static AttributeValue event(EventData event, Instant now, boolean compress) {
        Map<String, AttributeValue> m = new LinkedHashMap<>();
        m.put(TIME, AttributeValue.fromS(timestamp(event.timestamp() == null ? now : event.timestamp())));
        body(m, DATA, DATA_ENCODING, event.data(), compress);
        body(m, META, META_ENCODING, event.meta(), compress);
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
        m.put(TIME, AttributeValue.fromS(timestamp(now)));
        m.put(UNFOLD_TYPE, AttributeValue.fromS(unfold.type()));
        body(m, DATA, DATA_ENCODING, unfold.data(), compress);
        body(m, META, META_ENCODING, unfold.meta(), compress);
        return AttributeValue.fromM(m);
    }

    /** Nothing for a null (absent) body. */
    private static void body(Map<String, AttributeValue> m, String field, String encodingField, byte[] body, boolean compress) {
        if (body == null) {
            return;
        }
        Body b = encodeBody(body, compress);
        m.put(field, AttributeValue.fromB(SdkBytes.fromByteArray(b.bytes())));
        if (b.encoding() != RAW) {
            m.put(encodingField, AttributeValue.fromN(Integer.toString(b.encoding())));
        }
    }

    /** @param entry the element of {@code e}, or null when the read asked for types only */
    public static StoredEvent storedEvent(StreamName stream, long rangeKey, long index, String type, AttributeValue entry) {
        if (entry == null) {
            return new StoredEvent(stream, index, null, type, null, null, null, null);
        }
        Map<String, AttributeValue> m = map(entry, stream, rangeKey, "an element of e");
        return new StoredEvent(stream, index, time(m, stream, rangeKey), type,
                body(m, DATA, DATA_ENCODING, stream, index, "e"), body(m, META, META_ENCODING, stream, index, "e"),
                string(m.get(CORRELATION)), string(m.get(CAUSATION)));
    }

    public static StoredUnfold storedUnfold(StreamName stream, AttributeValue entry) {
        Map<String, AttributeValue> m = map(entry, stream, TIP_INDEX, "an element of u");
        AttributeValue i = m.get(UNFOLD_INDEX);
        AttributeValue c = m.get(UNFOLD_TYPE);
        if (i == null || i.n() == null || c == null || c.s() == null) {
            throw new StoreFormatException(stream, TIP_INDEX, "an unfold lacks its index 'i' (N) or type 'c' (S): " + entry);
        }
        long index = Long.parseLong(i.n());
        byte[] data = body(m, DATA, DATA_ENCODING, stream, index, "u");
        return new StoredUnfold(index, time(m, stream, TIP_INDEX), c.s(), data == null ? new byte[0] : data,
                body(m, META, META_ENCODING, stream, index, "u"));
    }

    private static Map<String, AttributeValue> map(AttributeValue v, StreamName stream, long rangeKey, String what) {
        if (v.type() != AttributeValue.Type.M) {
            throw new StoreFormatException(stream, rangeKey, what + " is not a map: " + v);
        }
        return v.m();
    }

    private static Instant time(Map<String, AttributeValue> m, StreamName stream, long rangeKey) {
        AttributeValue t = m.get(TIME);
        if (t == null || t.s() == null) {
            throw new StoreFormatException(stream, rangeKey, "an event or unfold lacks its timestamp 't' (S)");
        }
        try {
            return parseTimestamp(t.s());
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
        int encoding = enc == null ? RAW : encoding(enc, encodingField, stream, index, where + "." + field);
        byte[] stored;
        if (v.b() != null) {
            stored = v.b().asByteArray();
        } else if (v.s() != null) {
            stored = v.s().getBytes(java.nio.charset.StandardCharsets.UTF_8); // tolerate JSON stored as S
        } else {
            return null;
        }
        return decodeBody(stored, encoding, stream, index, where + "." + field);
    }

    /** Never guessed: a body read in the wrong encoding would be handed over as garbage. */
    private static int encoding(AttributeValue enc, String encodingField, StreamName stream, long index, String where) {
        try {
            return Integer.parseInt(enc.n());
        } catch (NumberFormatException e) { // also when it is not an N (null)
            throw new BodyDecodingException(stream, index, where, -1, "its encoding '" + encodingField
                    + "' is not a number (N) holding an integer: " + enc, e);
        }
    }

    private static String string(AttributeValue v) {
        return v == null ? null : v.s();
    }

    /** A body as stored: its bytes and encoding. */
    public record Body(byte[] bytes, int encoding) {}

    /** Encoding 1 when {@code compress} and deflating saves bytes; otherwise the bytes as they are (0). */
    public static Body encodeBody(byte[] body, boolean compress) {
        if (compress && body.length > 0) {
            byte[] deflated = deflate(body);
            if (deflated.length < body.length) {
                return new Body(deflated, DEFLATE);
            }
        }
        return new Body(body, RAW);
    }

    /** @param field where the body sits, for errors, e.g. {@code e.d} */
    public static byte[] decodeBody(byte[] stored, int encoding, StreamName stream, long index, String field) {
        switch (encoding) {
            case RAW: return stored;
            case DEFLATE: return inflate(stored, stream, index, field);
            case BROTLI: return unbrotli(stored, stream, index, field);
            default: throw new BodyDecodingException(stream, index, field, encoding, "unknown encoding", null);
        }
    }

    /** One deflater per thread, reset between bodies: setting up zlib's state costs more than deflating a typical body. */
    private static final ThreadLocal<Deflater> DEFLATERS = ThreadLocal.withInitial(() -> new Deflater(Deflater.DEFAULT_COMPRESSION, true));

    static byte[] deflate(byte[] body) {
        Deflater deflater = DEFLATERS.get();
        try {
            deflater.setInput(body);
            deflater.finish();
            ByteArrayOutputStream out = new ByteArrayOutputStream(body.length / 2 + 16);
            byte[] buf = new byte[8192];
            while (!deflater.finished()) {
                out.write(buf, 0, deflater.deflate(buf));
            }
            return out.toByteArray();
        } finally {
            deflater.reset();
        }
    }

    private static byte[] inflate(byte[] stored, StreamName stream, long index, String field) {
        Inflater inflater = new Inflater(true);
        try {
            inflater.setInput(stored);
            ByteArrayOutputStream out = new ByteArrayOutputStream(stored.length * 3 + 16);
            byte[] buf = new byte[8192];
            while (!inflater.finished()) {
                int n = inflater.inflate(buf);
                if (n == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                    throw new BodyDecodingException(stream, index, field, DEFLATE,
                            "the deflate stream is truncated (" + stored.length + " bytes)", null);
                }
                out.write(buf, 0, n);
            }
            return out.toByteArray();
        } catch (DataFormatException e) {
            throw new BodyDecodingException(stream, index, field, DEFLATE, "corrupt deflate data: " + e.getMessage(), e);
        } finally {
            inflater.end();
        }
    }

    private static byte[] unbrotli(byte[] stored, StreamName stream, long index, String field) {
        try {
            if (NativeBrotli.AVAILABLE) {
                return NativeBrotli.decode(stored);
            }
            try (InputStream in = new BrotliInputStream(new ByteArrayInputStream(stored))) {
                return in.readAllBytes();
            }
        } catch (IOException | RuntimeException e) {
            // org.brotli.dec reports corrupt input as IOException or BrotliRuntimeException
            throw new BodyDecodingException(stream, index, field, BROTLI, "corrupt Brotli data: " + e.getMessage(), e);
        }
    }

    /** brotli4j's native decoder when it is on the class path and loads (optional): about 3 times the pure-Java one on event bodies. */
    private static final class NativeBrotli {
        static final boolean AVAILABLE = probe();

        private static boolean probe() {
            try {
                Class.forName("com.aayushatharva.brotli4j.Brotli4jLoader", false, EventCodec.class.getClassLoader());
                return com.aayushatharva.brotli4j.Brotli4jLoader.isAvailable();
            } catch (ClassNotFoundException | LinkageError e) {
                return false; // optional: the pure-Java decoder is used
            }
        }

        static byte[] decode(byte[] stored) throws IOException {
            return com.aayushatharva.brotli4j.decoder.Decoder.decompress(stored, 0, stored.length);
        }
    }
}

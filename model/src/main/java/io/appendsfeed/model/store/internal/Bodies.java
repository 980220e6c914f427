package io.appendsfeed.model.store.internal;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.BodyDecodingException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;
import org.brotli.dec.BrotliInputStream;

/** Body encodings of the format: 0 raw UTF-8 JSON, 1 raw deflate (RFC 1951), 2 Brotli. */
public final class Bodies {

    public static final int RAW = 0;
    public static final int DEFLATE = 1;
    public static final int BROTLI = 2;

    private Bodies() {}

    /** A body as stored: its bytes and encoding. */
    public record Encoded(byte[] bytes, int encoding) {}

    /** Encoding 1 when {@code compress} and deflating saves bytes; otherwise the bytes as they are (0). */
    public static Encoded encode(byte[] body, boolean compress) {
        if (compress && body.length > 0) {
            byte[] deflated = deflate(body);
            if (deflated.length < body.length) {
                return new Encoded(deflated, DEFLATE);
            }
        }
        return new Encoded(body, RAW);
    }

    /**
     * @param field for the error: where the body sits, e.g. {@code e.d}
     * @throws BodyDecodingException on an unknown encoding or a corrupt body
     */
    public static byte[] decode(byte[] stored, int encoding, StreamName stream, long index, String field) {
        switch (encoding) {
            case RAW: return stored;
            case DEFLATE: return inflate(stored, stream, index, field);
            case BROTLI: return unbrotli(stored, stream, index, field);
            default: throw new BodyDecodingException(stream, index, field, encoding, "unknown encoding", null);
        }
    }

    /**
     * One deflater per thread, reset between bodies: setting up zlib's state (its window and tables)
     * cost more than deflating a typical body of a few hundred bytes.
     */
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
        if (NativeBrotli.AVAILABLE) {
            try {
                return NativeBrotli.decode(stored);
            } catch (IOException | RuntimeException e) {
                throw new BodyDecodingException(stream, index, field, BROTLI, "corrupt Brotli data: " + e.getMessage(), e);
            }
        }
        try (InputStream in = new BrotliInputStream(new ByteArrayInputStream(stored))) {
            return in.readAllBytes();
        } catch (IOException | RuntimeException e) {
            // org.brotli.dec reports corrupt input as IOException or BrotliRuntimeException
            throw new BodyDecodingException(stream, index, field, BROTLI, "corrupt Brotli data: " + e.getMessage(), e);
        }
    }
}

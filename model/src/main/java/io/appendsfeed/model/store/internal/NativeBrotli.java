package io.appendsfeed.model.store.internal;

import java.io.IOException;

/**
 * Brotli decoding through brotli4j's native library when brotli4j is on the class path and its
 * native part loads on this platform: about 3 times faster than the pure-Java decoder on the small
 * bodies events hold (measured on bodies written by equinox-js; see the reader's README). The
 * dependency is optional: without it, or on a platform it has no native library for, bodies are
 * decoded by the pure-Java {@code org.brotli:dec}.
 */
final class NativeBrotli {

    /** Whether brotli4j's classes and its native library are there. */
    static final boolean AVAILABLE = probe();

    private NativeBrotli() {}

    private static boolean probe() {
        try {
            Class.forName("com.aayushatharva.brotli4j.Brotli4jLoader", false, NativeBrotli.class.getClassLoader());
            return Loaded.available();
        } catch (ClassNotFoundException | LinkageError e) {
            return false; // optional: the pure-Java decoder is used
        }
    }

    /** @throws IOException when the body is not valid Brotli */
    static byte[] decode(byte[] stored) throws IOException {
        return Loaded.decode(stored);
    }

    /** Touches brotli4j's classes only once they are known to be there. */
    private static final class Loaded {
        static boolean available() {
            return com.aayushatharva.brotli4j.Brotli4jLoader.isAvailable();
        }

        static byte[] decode(byte[] stored) throws IOException {
            return com.aayushatharva.brotli4j.decoder.Decoder.decompress(stored, 0, stored.length);
        }
    }
}

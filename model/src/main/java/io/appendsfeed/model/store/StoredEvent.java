package io.appendsfeed.model.store;

import io.appendsfeed.model.StreamName;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * An event read back from the store. Bodies are decoded (whatever encoding they were stored in);
 * {@code data} and {@code meta} are null when the read asked for event types only, {@code meta}
 * and the ids are null when absent.
 */
public record StoredEvent(StreamName stream, long index, Instant timestamp, String type,
                          byte[] data, byte[] meta, String correlationId, String causationId) {

    /** The body as text (UTF-8), or null when not loaded. */
    public String dataText() {
        return data == null ? null : new String(data, StandardCharsets.UTF_8);
    }
}

package io.appendsfeed.model.store;

import io.appendsfeed.model.StreamName;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/** An event read back, bodies decoded; {@code data} and {@code meta} are null when the read asked for types only. */
public record StoredEvent(StreamName stream, long index, Instant timestamp, String type,
                          byte[] data, byte[] meta, String correlationId, String causationId) {

    public String dataText() {
        return data == null ? null : new String(data, StandardCharsets.UTF_8);
    }
}

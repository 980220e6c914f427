package io.appendsfeed.model.store;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Objects;

/** An event to append: bodies are UTF-8 JSON; meta, the ids and the timestamp (the client's clock then) are optional. */
public record EventData(String type, byte[] data, byte[] meta, String correlationId, String causationId, Instant timestamp) {

    public EventData {
        if (type == null || type.isEmpty()) {
            throw new IllegalArgumentException("an event needs a non-empty type");
        }
        Objects.requireNonNull(data, "data (use an empty array for no body)");
    }

    public static EventData of(String type, byte[] data) {
        return new EventData(type, data, null, null, null, null);
    }

    public static EventData json(String type, String json) {
        return of(type, json.getBytes(StandardCharsets.UTF_8));
    }

    public EventData withMeta(byte[] meta) {
        return new EventData(type, data, meta, correlationId, causationId, timestamp);
    }

    public EventData withTimestamp(Instant timestamp) {
        return new EventData(type, data, meta, correlationId, causationId, timestamp);
    }
}

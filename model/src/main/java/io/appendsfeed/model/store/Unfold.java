package io.appendsfeed.model.store;

import java.nio.charset.StandardCharsets;

/** A snapshot kept in the Tip ({@code u}), replaced on every write; meta is optional. */
public record Unfold(String type, byte[] data, byte[] meta) {

    public Unfold {
        if (type == null || type.isEmpty()) {
            throw new IllegalArgumentException("an unfold needs a non-empty type");
        }
        java.util.Objects.requireNonNull(data, "data");
    }

    public static Unfold json(String type, String json) {
        return new Unfold(type, json.getBytes(StandardCharsets.UTF_8), null);
    }
}

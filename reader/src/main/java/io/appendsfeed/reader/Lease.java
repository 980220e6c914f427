package io.appendsfeed.reader;

import io.appendsfeed.model.feed.PartitionId;
import java.time.Instant;
import java.util.Objects;

/**
 * The right of one reader instance to read a group's partition until {@code expiresAt}.
 *
 * @param token changes on every acquisition: commits fenced with an old token are refused
 */
public record Lease(String group, PartitionId partition, String owner, String token, Instant expiresAt) {
    public Lease {
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(partition, "partition");
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(token, "token");
        Objects.requireNonNull(expiresAt, "expiresAt");
    }
}

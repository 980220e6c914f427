package io.appendsfeed.reader;

import io.appendsfeed.model.feed.PartitionId;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Leases on a group's partitions, so that one instance at a time reads each: the half of a
 * {@link CheckpointStore} whose leases fence its commits. A lease not renewed
 * before it expires may be taken over; expiry is judged by the clocks of the instances, which
 * must agree to well within the lease timeout. Thread-safe.
 */
public interface LeaseStore {

    /**
     * Takes the lease when it is free, released or expired (or already ours).
     *
     * @return the lease, or empty when another owner holds it unexpired
     * @throws RuntimeException when the store cannot be read or written; no lease was taken
     */
    Optional<Lease> tryAcquire(String group, PartitionId partition, String owner, Duration timeout);

    /**
     * Extends a held lease.
     *
     * @return the renewed lease, or empty when it was lost (taken over or released)
     * @throws RuntimeException when the store cannot be reached; the lease is unchanged and
     *         expires unless renewed in time
     */
    Optional<Lease> renew(Lease lease, Duration timeout);

    /** Gives the lease up if still held (others may take it at once); does nothing otherwise. */
    void release(Lease lease);

    /** The current holder of a partition's lease, expired ones included; empty when never leased or released. */
    Optional<Lease> current(String group, PartitionId partition);

    /**
     * Records {@code owner} as live in {@code group} until now + {@code timeout}, forgets instances whose
     * time ran out, and returns the live ones, over which the group spreads its partitions.
     *
     * @return the live owners, {@code owner} included, sorted
     * @throws RuntimeException when the store cannot be read or written; nothing changed
     */
    List<String> heartbeat(String group, String owner, Duration timeout);

    /**
     * Removes a closing {@code owner} from the live instances at once, so that the others take its share
     * without waiting for its heartbeat to run out.
     *
     * @throws RuntimeException when the store cannot be written; the heartbeat then runs out by itself
     */
    void leave(String group, String owner);

    /**
     * The right of one reader instance to read a group's partition until {@code expiresAt}.
     *
     * @param token changes on every acquisition: commits fenced with an old token are refused
     */
    record Lease(String group, PartitionId partition, String owner, String token, Instant expiresAt) {
        public Lease {
            Objects.requireNonNull(group, "group");
            Objects.requireNonNull(partition, "partition");
            Objects.requireNonNull(owner, "owner");
            Objects.requireNonNull(token, "token");
            Objects.requireNonNull(expiresAt, "expiresAt");
        }
    }
}

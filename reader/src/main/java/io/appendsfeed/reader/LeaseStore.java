package io.appendsfeed.reader;

import io.appendsfeed.model.feed.PartitionId;
import java.time.Duration;
import java.util.Optional;

/**
 * Leases on a group's partitions, so that one instance at a time reads each. A lease not renewed
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
}

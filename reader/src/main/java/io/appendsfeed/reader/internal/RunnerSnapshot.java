package io.appendsfeed.reader.internal;

import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.reader.LeaseStore.Lease;
import io.appendsfeed.reader.FeedReader.PartitionLag;

/**
 * What other threads see of a runner.
 *
 * @param lease the lease held (null without leases)
 * @param committed the checkpoint last committed or found stored, or null
 * @param atTail the last read found nothing new
 * @param error why it failed, or null
 */
public record RunnerSnapshot(Phase phase, Lease lease, Checkpoint committed, boolean atTail, String error) {

    /** Where a {@link PartitionRunner} is; the table of allowed transitions is here. */
    public enum Phase {
        /** Resolving the start position and opening the partition in the scheduler. */
        OPENING,
        /** Walking the feed. */
        READING,
        /** Giving the partition to another instance: no more reading; the batch in hand is handled, committed, the lease released. */
        HANDING_OVER,
        /** The reader closes: no more reading; once handler calls stopped, commits and releases the lease. */
        CLOSING,
        /** Stopped on something it cannot read; nothing skipped. Still commits what was handled, until closed. */
        FAILED,
        /** The lease went to another instance: outstanding work dropped, nothing committed or released. */
        LOST,
        /** Done: nothing of the partition runs here any more. */
        STOPPED;

        /** The allowed transitions: everything else is refused by {@link PartitionRunner}'s {@code move}. */
        boolean mayBecome(Phase next) {
            return switch (this) {
                case OPENING -> next != OPENING;
                case READING -> next == HANDING_OVER || next == CLOSING || next == FAILED || next == LOST || next == STOPPED;
                case HANDING_OVER -> next == CLOSING || next == LOST || next == STOPPED;
                case FAILED -> next == CLOSING || next == LOST || next == STOPPED;
                case CLOSING, LOST -> next == STOPPED || (this == CLOSING && next == LOST);
                case STOPPED -> false;
            };
        }

        /** Counts towards the instance's share of the group's partitions. */
        public boolean holding() {
            return this == OPENING || this == READING || this == FAILED;
        }

        /** Holds the partition's lease: holding, or handing it over. */
        public boolean leased() {
            return holding() || this == HANDING_OVER;
        }
    }

    public PartitionLag.State state() {
        if (error != null) {
            return PartitionLag.State.FAILED;
        }
        return switch (phase) {
            case OPENING -> PartitionLag.State.STARTING;
            case READING, HANDING_OVER -> PartitionLag.State.READING;
            default -> PartitionLag.State.STOPPED;
        };
    }

    RunnerSnapshot with(Phase p) { return new RunnerSnapshot(p, lease, committed, atTail, error); }
    RunnerSnapshot withLease(Lease l) { return new RunnerSnapshot(phase, l, committed, atTail, error); }
    RunnerSnapshot withCommitted(Checkpoint c) { return new RunnerSnapshot(phase, lease, c, atTail, error); }
    RunnerSnapshot withAtTail(boolean t) { return new RunnerSnapshot(phase, lease, committed, t, error); }
    RunnerSnapshot withError(String e) { return new RunnerSnapshot(phase, lease, committed, atTail, e); }
}

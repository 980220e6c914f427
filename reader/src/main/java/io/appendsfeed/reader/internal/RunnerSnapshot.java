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
public record RunnerSnapshot(RunnerPhase phase, Lease lease, Checkpoint committed, boolean atTail, String error) {
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

    RunnerSnapshot with(RunnerPhase p) { return new RunnerSnapshot(p, lease, committed, atTail, error); }
    RunnerSnapshot withLease(Lease l) { return new RunnerSnapshot(phase, l, committed, atTail, error); }
    RunnerSnapshot withCommitted(Checkpoint c) { return new RunnerSnapshot(phase, lease, c, atTail, error); }
    RunnerSnapshot withAtTail(boolean t) { return new RunnerSnapshot(phase, lease, committed, t, error); }
    RunnerSnapshot withError(String e) { return new RunnerSnapshot(phase, lease, committed, atTail, e); }
}

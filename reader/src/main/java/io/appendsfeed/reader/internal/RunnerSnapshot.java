package io.appendsfeed.reader.internal;

import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.reader.LeaseStore.Lease;
import io.appendsfeed.reader.FeedReader.PartitionLag;

/**
 * What other threads see of a runner.
 *
 * @param lease the lease held (null without leases)
 * @param committed the checkpoint last committed or found stored, or null
 * @param opened the partition was opened in the scheduler (so its handled position means something)
 * @param atTail the last read found nothing new
 * @param error why it failed, or null
 */
public record RunnerSnapshot(RunnerPhase phase, Lease lease, Checkpoint committed, boolean opened, boolean atTail, String error) {
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

    static RunnerSnapshot opening(Lease lease) {
        return new RunnerSnapshot(RunnerPhase.OPENING, lease, null, false, false, null);
    }

    RunnerSnapshot with(RunnerPhase p) { return new RunnerSnapshot(p, lease, committed, opened, atTail, error); }
    RunnerSnapshot withLease(Lease l) { return new RunnerSnapshot(phase, l, committed, opened, atTail, error); }
    RunnerSnapshot withCommitted(Checkpoint c) { return new RunnerSnapshot(phase, lease, c, opened, atTail, error); }
    RunnerSnapshot opened(Checkpoint stored) { return new RunnerSnapshot(phase, lease, stored, true, false, error); }
    RunnerSnapshot withAtTail(boolean t) { return new RunnerSnapshot(phase, lease, committed, opened, t, error); }
    RunnerSnapshot withError(String e) { return new RunnerSnapshot(phase, lease, committed, opened, atTail, e); }
}

package io.appendsfeed.reader.internal;

/** Where a {@link PartitionRunner} is; the table of allowed transitions is here. */
public enum RunnerPhase {
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
    boolean mayBecome(RunnerPhase next) {
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

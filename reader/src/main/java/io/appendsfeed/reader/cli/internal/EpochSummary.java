package io.appendsfeed.reader.cli.internal;

import io.appendsfeed.model.feed.AppendsEpoch.EpochEvent;
import io.appendsfeed.model.feed.EpochId;
import io.appendsfeed.model.feed.AppendsEpoch.EpochState;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.feed.Span;
import java.time.Instant;

/**
 * Figures of one epoch, accumulated while walking it: the epoch's own fold ({@link EpochState}: its
 * events, streams, body bytes, whether it is closed) plus the spans and stream events it holds.
 */
public final class EpochSummary {

    public final PartitionId partition;
    public final EpochId epoch;
    public long spans;
    /** Stream events the spans cover. */
    public long events;
    public Instant firstIndexed;
    public Instant lastIndexed;
    private EpochState state;

    public EpochSummary(PartitionId partition, EpochId epoch) {
        this.partition = partition;
        this.epoch = epoch;
        this.state = EpochState.empty(epoch);
    }

    public void add(EpochWalk.Entry e) {
        state = state.evolve(e.event(), e.bytes(), e.indexedAt());
        if (firstIndexed == null) {
            firstIndexed = e.indexedAt();
        }
        lastIndexed = e.indexedAt();
        if (e.event() instanceof EpochEvent.Ingested i) {
            for (Span s : i.add()) {
                span(s);
            }
            for (Span s : i.app()) {
                span(s);
            }
        }
    }

    private void span(Span s) {
        spans++;
        events += s.count();
    }

    /** Epoch events ({@code Ingested} and {@code Closed}). */
    public long entries() {
        return state.version();
    }

    /** Bytes of the epoch events' bodies. */
    public long bytes() {
        return state.bytes();
    }

    public boolean closed() {
        return state.isClosed();
    }

    public int streams() {
        return state.next().size();
    }
}

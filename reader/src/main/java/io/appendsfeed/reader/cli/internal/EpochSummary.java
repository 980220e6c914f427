package io.appendsfeed.reader.cli.internal;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.EpochEvent;
import io.appendsfeed.model.feed.EpochId;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.feed.Span;
import java.time.Instant;
import java.util.HashSet;
import java.util.Set;

/** Figures of one epoch, accumulated while walking it. */
public final class EpochSummary {

    public final PartitionId partition;
    public final EpochId epoch;
    /** Epoch events ({@code Ingested} and {@code Closed}). */
    public long entries;
    public long spans;
    /** Stream events the spans cover. */
    public long events;
    /** Bytes of the epoch events' bodies. */
    public long bytes;
    public boolean closed;
    public Instant firstIndexed;
    public Instant lastIndexed;
    private final Set<StreamName> streams = new HashSet<>();

    public EpochSummary(PartitionId partition, EpochId epoch) {
        this.partition = partition;
        this.epoch = epoch;
    }

    public void add(EpochWalk.Entry e) {
        entries++;
        bytes += e.bytes();
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
        } else if (e.event() instanceof EpochEvent.Closed) {
            closed = true;
        }
    }

    private void span(Span s) {
        spans++;
        events += s.count();
        streams.add(s.stream());
    }

    public int streams() {
        return streams.size();
    }
}

package io.appendsfeed.samples.chaos;

import io.appendsfeed.model.feed.AppendsEpoch;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.AppendsEpoch.EpochEvent;
import io.appendsfeed.model.feed.EpochId;
import io.appendsfeed.model.feed.FeedStreams;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.feed.Partitioner;
import io.appendsfeed.model.feed.Span;
import io.appendsfeed.model.store.Read;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoredEvent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads every epoch of an index back and lists each stream's events as the feed holds them,
 * recording every span that does not continue exactly where its stream's feed is (a gap or a
 * duplicate), every stream found in the wrong partition and every epoch event after {@code Closed}.
 */
final class FeedContents {

    final Map<StreamName, List<String>> streams = new LinkedHashMap<>();
    final List<String> problems = new ArrayList<>();
    private final int partitions;
    int epochs;

    FeedContents(StoreClient index, int partitions) {
        this.partitions = partitions;
        Map<StreamName, Long> next = new LinkedHashMap<>();
        for (int p = 0; p < partitions; p++) {
            for (int e = 0; ; e++) {
                StreamName epoch = FeedStreams.epoch(PartitionId.of(p), EpochId.of(e));
                List<StoredEvent> stored = index.readAll(epoch, Read.forward(0).strongly());
                if (stored.isEmpty()) {
                    break;
                }
                epochs++;
                boolean closed = false;
                for (StoredEvent s : stored) {
                    EpochEvent event = AppendsEpoch.decode(s.type(), s.data());
                    if (closed) {
                        problems.add(epoch + ": " + event + " after Closed");
                    }
                    if (event instanceof EpochEvent.Closed) {
                        closed = true;
                    } else if (event instanceof EpochEvent.Ingested i) {
                        List<Span> spans = new ArrayList<>(i.add());
                        spans.addAll(i.app());
                        for (Span span : spans) {
                            add(p, epoch, span, next);
                        }
                    }
                }
                if (!closed) {
                    break;
                }
            }
        }
    }

    private void add(int partition, StreamName epoch, Span span, Map<StreamName, Long> next) {
        if (Partitioner.route(span.stream(), partitions).value() != partition) {
            problems.add(epoch + ": " + span.stream() + " belongs to another partition");
        }
        long expected = next.getOrDefault(span.stream(), 0L);
        if (span.index() != expected) {
            problems.add(epoch + ": span " + span + " where " + span.stream() + " is at " + expected
                    + (span.index() > expected ? " (a gap)" : " (a duplicate)"));
        }
        next.put(span.stream(), span.nextIndex());
        streams.computeIfAbsent(span.stream(), s -> new ArrayList<>()).addAll(span.types());
    }
}

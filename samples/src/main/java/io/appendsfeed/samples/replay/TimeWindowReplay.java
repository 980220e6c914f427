package io.appendsfeed.samples.replay;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.reader.FeedReader.CatchUpResult;
import io.appendsfeed.reader.StreamHandler.FeedEvent;
import io.appendsfeed.reader.FeedReader;
import io.appendsfeed.reader.FeedReaderConfig;
import io.appendsfeed.reader.StreamHandler.HandlerResult;
import io.appendsfeed.reader.InMemoryCheckpointStore;
import io.appendsfeed.reader.InMemoryParkedStreams;
import io.appendsfeed.reader.StartPosition;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Every event written in {@code [from, to)}, each stream's in order: a throw-away reader from
 * {@link StartPosition#time} to the feed's tail, so the window should have ended, and been indexed, first.
 */
public final class TimeWindowReplay {

    /** The window's events, per stream in order; streams sorted by name. */
    public record Window(Instant from, Instant to, Map<StreamName, List<FeedEvent>> streams) {
        public long events() {
            return streams.values().stream().mapToLong(List::size).sum();
        }
    }

    private final DynamoDbClient dynamo;
    private final String indexTable;
    private final String storeTable;

    public TimeWindowReplay(DynamoDbClient dynamo, String indexTable, String storeTable) {
        this.dynamo = dynamo;
        this.indexTable = indexTable;
        this.storeTable = storeTable;
    }

    /**
     * @param categories only streams of these categories (empty: all)
     * @throws IllegalStateException when the feed could not be read to its tail within {@code timeout}
     */
    public Window replay(Instant from, Instant to, Set<String> categories, Duration timeout) {
        Objects.requireNonNull(from, "from");
        if (!to.isAfter(from)) {
            throw new IllegalArgumentException("the window must end after it starts: from " + from + ", to " + to);
        }
        Map<StreamName, List<FeedEvent>> streams = new TreeMap<>();
        FeedReaderConfig config = FeedReaderConfig.builder("replay-" + UUID.randomUUID(), indexTable, storeTable)
                .start(StartPosition.time(from))
                .categories(categories)
                .leases(false) // a private, throw-away reader: nobody to share partitions with
                .pollInterval(Duration.ofMillis(50))
                .build();
        FeedReader reader = new FeedReader(dynamo, config, (stream, events) -> {
            List<FeedEvent> inWindow = events.stream()
                    .filter(e -> !e.timestamp().isBefore(from) && e.timestamp().isBefore(to)).toList();
            if (!inWindow.isEmpty()) {
                synchronized (streams) {
                    streams.computeIfAbsent(stream, s -> new ArrayList<>()).addAll(inWindow);
                }
            }
            return HandlerResult.handled();
        }, new InMemoryCheckpointStore(), new InMemoryParkedStreams());
        CatchUpResult result = reader.runUntilCaughtUp(timeout);
        if (!result.caughtUp()) {
            throw new IllegalStateException("the replay did not reach the feed's tail within " + timeout + ": " + result.lag());
        }
        synchronized (streams) {
            streams.replaceAll((s, events) -> List.copyOf(events));
            return new Window(from, to, Collections.unmodifiableMap(new TreeMap<>(streams)));
        }
    }
}

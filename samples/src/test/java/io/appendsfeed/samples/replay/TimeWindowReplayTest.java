package io.appendsfeed.samples.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.EventData;
import io.appendsfeed.model.store.Expected;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import io.appendsfeed.reader.StreamHandler.FeedEvent;
import io.appendsfeed.samples.local.LocalFeed;
import io.appendsfeed.samples.testing.Feeds;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(LocalDynamoExtension.class)
class TimeWindowReplayTest {

    private static final List<StreamName> STREAMS = List.of(StreamName.parse("Order-1"), StreamName.parse("Order-2"),
            StreamName.parse("Invoice-1"));

    /** Appends one event named {@code phase + k} to each stream; returns how many. */
    private static int write(LocalFeed feed, String phase, int perStream, int[] versions) {
        for (int k = 0; k < perStream; k++) {
            for (int s = 0; s < STREAMS.size(); s++) {
                feed.store().append(STREAMS.get(s), Expected.version(versions[s]), List.of(EventData.json(phase + k, "{}")));
                versions[s]++;
            }
        }
        return perStream * STREAMS.size();
    }

    /**
     * A boundary strictly after every event written so far and at or before every later one:
     * event timestamps are stored to the millisecond, so take the next whole millisecond and wait
     * for the clock to reach it.
     */
    private static Instant boundary() {
        Instant b = Instant.now().truncatedTo(ChronoUnit.MILLIS).plusMillis(1);
        await().pollInterval(Duration.ofMillis(1)).until(() -> !Instant.now().isBefore(b));
        return b;
    }

    @Test
    void replays_exactly_the_events_written_in_the_window_in_stream_order(LocalDynamo local) {
        try (LocalFeed feed = Feeds.fresh(local, 2)) {
            int[] versions = new int[STREAMS.size()];
            int total = write(feed, "Before", 3, versions);
            Instant from = boundary();
            total += write(feed, "Inside", 4, versions);
            Instant to = boundary();
            total += write(feed, "After", 2, versions);
            long expected = total;
            await().atMost(Duration.ofSeconds(30)).until(() -> Feeds.indexed(feed, 2) == expected);

            TimeWindowReplay replay = new TimeWindowReplay(local.dynamo(), feed.indexTable(), feed.storeTable());
            TimeWindowReplay.Window window = replay.replay(from, to, Set.of(), Duration.ofSeconds(30));

            assertThat(window.events()).isEqualTo(12);
            for (StreamName s : STREAMS) {
                List<FeedEvent> events = window.streams().get(s);
                assertThat(events).extracting(FeedEvent::type).containsExactly("Inside0", "Inside1", "Inside2", "Inside3");
                assertThat(events).extracting(FeedEvent::index).containsExactly(3L, 4L, 5L, 6L);
                assertThat(events).allSatisfy(e -> assertThat(e.timestamp()).isBetween(from, to.minusNanos(1)));
            }

            Map<StreamName, List<FeedEvent>> orders = replay.replay(from, to, Set.of("Order"), Duration.ofSeconds(30)).streams();
            assertThat(orders.keySet()).containsExactly(StreamName.parse("Order-1"), StreamName.parse("Order-2"));
        }
    }

    @Test
    void a_window_that_ends_before_it_starts_is_refused(LocalDynamo local) {
        TimeWindowReplay replay = new TimeWindowReplay(local.dynamo(), "index", "store");
        Instant t = Instant.now();
        assertThatThrownBy(() -> replay.replay(t, t, Set.of(), Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must end after it starts");
    }
}

package io.appendsfeed.reader.internal;

import io.appendsfeed.model.feed.EpochRecord;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.AppendsEpoch.EpochEvent;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.feed.Span;
import io.appendsfeed.reader.StreamHandler.FeedEvent;
import io.appendsfeed.reader.FeedReaderConfig;
import io.appendsfeed.reader.StreamHandler.HandlerResult;
import io.appendsfeed.reader.InMemoryParkedStreams;
import io.appendsfeed.reader.StreamHandler;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.retries.api.BackoffStrategy;

/** The scheduler on its own: no DynamoDB, spans offered directly, bodies not loaded. */
class SchedulerTest {

    private static final PartitionId P = PartitionId.ZERO;
    private static final Instant T = Instant.parse("2026-01-01T00:00:00Z");

    private final ExecutorService workers = Executors.newFixedThreadPool(4);
    private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor();
    private final InMemoryParkedStreams parked = new InMemoryParkedStreams();
    private final List<String> calls = new CopyOnWriteArrayList<>();
    private long offset;

    @AfterEach
    void stop() {
        workers.shutdownNow();
        timers.shutdownNow();
    }

    private Scheduler scheduler(StreamHandler handler, int parkAfter, int maxConcurrent) {
        FeedReaderConfig config = FeedReaderConfig.builder("g", "index", "store").loadBodies(false).maxBatchEvents(100)
                .parkAfterAttempts(parkAfter).build();
        return new Scheduler(new StreamCall(config, handler, null, parked, null), maxConcurrent, 100,
                BackoffStrategy.exponentialDelayHalfJitter(Duration.ofMillis(5), Duration.ofMillis(20)), workers, timers);
    }

    private void offer(Scheduler s, Span... spans) {
        Checkpoint at = Checkpoint.of(0, offset++);
        s.submit(P, List.of(EpochRecord.of(at, T, new EpochEvent.Ingested(List.of(spans), List.of()))));
    }

    private StreamHandler recording() {
        return (stream, events) -> {
            events.forEach(e -> calls.add(e.toString()));
            return HandlerResult.handled();
        };
    }

    @Test
    void each_stream_gets_its_events_in_order_and_the_checkpoint_passes_them() {
        Scheduler s = scheduler(recording(), 3, 4);
        s.open(P, Checkpoint.START, null, List.of());
        offer(s, Span.of("A-1", 0, "x", "y"), Span.of("B-1", 0, "x"));
        offer(s, Span.of("A-1", 2, "z"));

        await().atMost(Duration.ofSeconds(5)).until(() -> s.status(P).handled().equals(Checkpoint.of(0, 2)));
        List<String> a = calls.stream().filter(c -> c.startsWith("A-1")).toList();
        assertThat(a).containsExactly("A-1@0:x", "A-1@1:y", "A-1@2:z");
        assertThat(calls).contains("B-1@0:x");
    }

    /**
     * Epoch events read together are offered together: a stream's first call carries all its events
     * they hold (up to the batch limit), so its body load knows how much of the stream it wants. Offered
     * one by one, the first call started with the first epoch event's.
     */
    @Test
    void a_streams_first_call_carries_all_its_events_of_the_epoch_events_offered_together() {
        List<Integer> sizes = new CopyOnWriteArrayList<>();
        Scheduler s = scheduler((stream, events) -> {
            sizes.add(events.size());
            return HandlerResult.handled();
        }, 3, 4);
        s.open(P, Checkpoint.START, null, List.of());
        List<EpochRecord> read = new ArrayList<>();
        for (int k = 0; k < 5; k++) {
            read.add(EpochRecord.of(Checkpoint.of(0, offset++), T,
                    new EpochEvent.Ingested(List.of(Span.of("A-1", 2L * k, "x", "y")), List.of())));
        }

        assertThat(s.submit(P, read)).isTrue();

        await().atMost(Duration.ofSeconds(5)).until(() -> s.status(P).handled().equals(Checkpoint.of(0, 5)));
        assertThat(sizes).as("one call, with the ten events").containsExactly(10);
    }

    @Test
    void one_stream_is_never_handled_twice_at_once_while_others_run_in_parallel() throws Exception {
        Map<StreamName, AtomicInteger> inFlight = new ConcurrentHashMap<>();
        AtomicInteger overlaps = new AtomicInteger();
        CountDownLatch slowStarted = new CountDownLatch(1);
        CountDownLatch releaseSlow = new CountDownLatch(1);
        Scheduler s = scheduler((stream, events) -> {
            if (inFlight.computeIfAbsent(stream, x -> new AtomicInteger()).incrementAndGet() > 1) {
                overlaps.incrementAndGet();
            }
            try {
                if (stream.value().equals("Slow-1")) {
                    slowStarted.countDown();
                    releaseSlow.await(5, TimeUnit.SECONDS);
                }
                events.forEach(e -> calls.add(e.toString()));
                return HandlerResult.handled();
            } finally {
                inFlight.get(stream).decrementAndGet();
            }
        }, 3, 4);
        s.open(P, Checkpoint.START, null, List.of());
        offer(s, Span.of("Slow-1", 0, "x"));
        assertThat(slowStarted.await(5, TimeUnit.SECONDS)).isTrue();
        for (int k = 0; k < 20; k++) {
            offer(s, Span.of("Slow-1", k + 1, "x"), Span.of("Fast-" + (k % 3), k / 3, "x"));
        }

        await().atMost(Duration.ofSeconds(5)).until(() -> calls.stream().filter(c -> c.startsWith("Fast-")).count() == 20);
        assertThat(s.status(P).handled()).isEqualTo(Checkpoint.START);
        releaseSlow.countDown();
        await().atMost(Duration.ofSeconds(5)).until(() -> s.status(P).handled().equals(Checkpoint.of(0, 21)));
        assertThat(overlaps).hasValue(0);
        List<String> slow = calls.stream().filter(c -> c.startsWith("Slow-")).toList();
        List<String> expected = new ArrayList<>();
        for (int k = 0; k <= 20; k++) {
            expected.add("Slow-1@" + k + ":x");
        }
        assertThat(slow).containsExactlyElementsOf(expected);
    }

    @Test
    void a_failing_stream_is_parked_after_its_tries_and_the_checkpoint_moves_on_for_the_rest() {
        AtomicInteger tries = new AtomicInteger();
        Scheduler s = scheduler((stream, events) -> {
            if (stream.value().equals("Bad-1")) {
                tries.incrementAndGet();
                throw new IllegalStateException("cannot apply " + events.get(0));
            }
            events.forEach(e -> calls.add(e.toString()));
            return HandlerResult.handled();
        }, 3, 4);
        s.open(P, Checkpoint.START, null, List.of());
        offer(s, Span.of("Bad-1", 4, "x"), Span.of("Good-1", 0, "x"));
        offer(s, Span.of("Bad-1", 5, "y"), Span.of("Good-1", 1, "x"));

        await().atMost(Duration.ofSeconds(5)).until(() -> s.status(P).handled().equals(Checkpoint.of(0, 2)));
        assertThat(tries).hasValue(3);
        assertThat(calls).containsExactly("Good-1@0:x", "Good-1@1:x");
        assertThat(parked.list("g")).singleElement().satisfies(p -> {
            assertThat(p.stream()).isEqualTo(StreamName.parse("Bad-1"));
            assertThat(p.fromIndex()).isEqualTo(4);
            assertThat(p.position()).isEqualTo(Checkpoint.of(0, 0));
            assertThat(p.reason()).contains("cannot apply Bad-1@4:x");
            assertThat(p.attempts()).isEqualTo(3);
        });

        offer(s, Span.of("Bad-1", 6, "z"));
        await().atMost(Duration.ofSeconds(5)).until(() -> s.status(P).handled().equals(Checkpoint.of(0, 3)));
        assertThat(tries).as("later events wait behind the parked stream").hasValue(3);
    }

    @Test
    void a_reached_position_beyond_the_call_skips_events_the_handler_already_has() {
        Scheduler s = scheduler((stream, events) -> {
            events.forEach(e -> calls.add(e.toString()));
            // the handler has applied up to index 9 elsewhere (e.g. before a crash)
            return HandlerResult.reached(Math.max(10, events.get(events.size() - 1).index() + 1));
        }, 3, 1);
        s.open(P, Checkpoint.START, null, List.of());
        offer(s, Span.of("A-1", 0, "x"));
        await().atMost(Duration.ofSeconds(5)).until(() -> s.status(P).handled().equals(Checkpoint.of(0, 1)));
        offer(s, Span.of("A-1", 1, "x", "x", "x"));
        offer(s, Span.of("A-1", 9, "x", "x"));
        await().atMost(Duration.ofSeconds(5)).until(() -> s.status(P).handled().equals(Checkpoint.of(0, 3)));
        assertThat(calls).containsExactly("A-1@0:x", "A-1@10:x");
    }

    @Test
    void a_reached_position_inside_the_call_hands_the_rest_over_again() {
        AtomicInteger call = new AtomicInteger();
        Scheduler s = scheduler((stream, events) -> {
            calls.add(events.toString());
            return call.incrementAndGet() == 1 ? HandlerResult.reached(events.get(0).index() + 1) : HandlerResult.handled();
        }, 3, 1);
        s.open(P, Checkpoint.START, null, List.of());
        offer(s, Span.of("A-1", 0, "a", "b", "c"));
        await().atMost(Duration.ofSeconds(5)).until(() -> s.status(P).handled().equals(Checkpoint.of(0, 1)));
        assertThat(calls).containsExactly("[A-1@0:a, A-1@1:b, A-1@2:c]", "[A-1@1:b, A-1@2:c]");
    }

    @Test
    void spans_of_a_closed_partition_are_dropped_and_its_running_calls_are_not_counted() {
        Scheduler s = scheduler(recording(), 3, 4);
        s.open(P, Checkpoint.START, null, List.of());
        s.close(P);
        assertThat(s.submit(P, List.of(EpochRecord.of(Checkpoint.START, T,
                new EpochEvent.Ingested(List.of(Span.of("A-1", 0, "x")), List.of()))))).isFalse();
        assertThat(s.status(P)).isNull();
    }
}

package io.appendsfeed.reader;

import static org.assertj.core.api.Assertions.assertThat;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.feed.Span;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import io.appendsfeed.reader.CheckpointStore.StoredCheckpoint;
import io.appendsfeed.reader.StreamHandler.FeedEvent;
import io.appendsfeed.reader.FeedReader.CatchUpResult;
import io.appendsfeed.reader.FeedReader.PartitionLag;

@ExtendWith(LocalDynamoExtension.class)
class FeedReaderReplayTest {

    /** 8 streams, 2 partitions, several epochs each: every event appended, and where it went. */
    private static Map<String, Integer> writeKnownSet(FeedFixture f, int rounds) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (int round = 0; round < rounds; round++) {
            List<Span> spans = new ArrayList<>();
            for (int s = 0; s < 8; s++) {
                String stream = (s % 2 == 0 ? "Account-" : "Order-") + s;
                String[] types = round % 3 == 0 ? new String[] {"Opened", "Changed"} : new String[] {"Changed"};
                spans.add(f.write(stream, types));
                counts.merge(stream, types.length, Integer::sum);
            }
            f.ingest(spans.toArray(Span[]::new));
            if (round % 4 == 3) {
                for (int p = 0; p < f.partitions; p++) {
                    f.closeEpoch(p);
                }
            }
        }
        return counts;
    }

    @Test
    void full_replay_gives_exactly_the_events_in_stream_order_without_gaps_or_duplicates_across_epochs(LocalDynamo local) {
        FeedFixture f = new FeedFixture(local, 2);
        Map<String, Integer> counts = writeKnownSet(f, 10);
        Recorder handler = new Recorder();

        CatchUpResult r = new FeedReader(local.dynamo(), f.config("replay").maxBatchEvents(3).build(), handler)
                .runUntilCaughtUp(Duration.ofSeconds(30));

        assertThat(r.caughtUp()).isTrue();
        assertThat(handler.byStream.keySet()).hasSize(counts.size());
        counts.forEach((stream, n) -> {
            assertThat(handler.indices(stream)).as(stream).containsExactlyElementsOf(LongStream.range(0, n).boxed().toList());
            assertThat(handler.byStream.get(StreamName.parse(stream))).allSatisfy(e ->
                    assertThat(e.dataText()).isEqualTo("{\"stream\":\"" + stream + "\",\"n\":" + e.index() + "}"));
        });
        assertThat(handler.overlaps).hasValue(0);
        assertThat(r.lag()).hasSize(2).allSatisfy(l -> {
            assertThat(l.eventsBehind()).isZero();
            assertThat(l.committed()).isEqualTo(l.tail());
            assertThat(l.committed().epoch().value()).isEqualTo(2);
        });
    }

    /**
     * A catch-up run ends read to the tail: its lag says so from what the runners read, with no read
     * of the epochs' Tips (or the index) after the run's last write (its commit, the leases released).
     * Reading them again was one Tip read per partition per run: 6 RCU on an equinox-js epoch. And each
     * tick reads the index once to count the partitions (it read it once more per partition).
     */
    @Test
    void a_catch_up_runs_lag_is_what_it_read_with_no_read_of_the_index_after_it_closed(LocalDynamo local) {
        FeedFixture f = new FeedFixture(local, 2);
        writeKnownSet(f, 6);
        List<String> calls = java.util.Collections.synchronizedList(new ArrayList<>());
        software.amazon.awssdk.services.dynamodb.DynamoDbClient real = local.dynamo();
        software.amazon.awssdk.services.dynamodb.DynamoDbClient watched = (software.amazon.awssdk.services.dynamodb.DynamoDbClient)
                java.lang.reflect.Proxy.newProxyInstance(getClass().getClassLoader(),
                        new Class<?>[] {software.amazon.awssdk.services.dynamodb.DynamoDbClient.class}, (proxy, method, args) -> {
                            if (args != null && args.length == 1 && args[0] instanceof java.util.function.Consumer) {
                                // the builder variants: built here, so that the request-object variant below sees it
                                return java.lang.reflect.InvocationHandler.invokeDefault(proxy, method, args);
                            }
                            String name = method.getName();
                            String what = args == null || args.length == 0 ? "" : String.valueOf(args[0]);
                            if (what.contains(f.indexTable)) {
                                boolean write = name.startsWith("put") || name.startsWith("update") || name.startsWith("delete")
                                        || name.startsWith("transactWrite");
                                calls.add(write ? "write" : what.contains("$AppendsIndex-") ? "read of the index"
                                        : what.contains("$AppendsEpoch-") ? "read of the feed" : "read");
                            }
                            try {
                                return method.invoke(real, args);
                            } catch (java.lang.reflect.InvocationTargetException e) {
                                throw e.getCause();
                            }
                        });

        List<String> lines = java.util.Collections.synchronizedList(new ArrayList<>());
        java.io.PrintStream metricsOut = new java.io.PrintStream(new java.io.OutputStream() {
            private final StringBuilder line = new StringBuilder();

            @Override
            public void write(int b) {
                if (b == '\n') {
                    lines.add(line.toString());
                    line.setLength(0);
                } else {
                    line.append((char) b);
                }
            }
        }, true);
        // with metrics, whose last sample at the close asks for the lag again
        CatchUpResult r = new FeedReader(watched, f.config("tail-known")
                .metrics(new io.appendsfeed.model.metrics.EmfMetrics(metricsOut, "test", Map.of())).build(), new Recorder())
                .runUntilCaughtUp(Duration.ofSeconds(30));

        assertThat(r.caughtUp()).isTrue();
        assertThat(r.lag()).hasSize(2).allSatisfy(l -> {
            assertThat(l.eventsBehind()).isZero();
            assertThat(l.tail()).isEqualTo(l.committed())
                    .isEqualTo(new io.appendsfeed.model.feed.FeedPositions(f.index).tail(l.partition()));
        });
        assertThat(lines).as("the close's metrics sample").anyMatch(l -> l.contains("\"partition\":\"1\""));
        int lastWrite = calls.lastIndexOf("write");
        assertThat(lastWrite).isPositive();
        assertThat(calls.subList(lastWrite, calls.size())).doesNotContain("read of the feed", "read of the index");
        // the partitions are counted once per tick: never two reads of the index in a row
        for (int k = 1; k < calls.size(); k++) {
            assertThat(calls.get(k - 1) + ", " + calls.get(k)).as("calls %d and %d", k - 1, k)
                    .isNotEqualTo("read of the index, read of the index");
        }
    }

    @Test
    void filters_by_category_and_event_type_apply_before_anything_is_handed_over(LocalDynamo local) {
        FeedFixture f = new FeedFixture(local, 1);
        writeKnownSet(f, 3);
        Recorder handler = new Recorder();

        CatchUpResult r = new FeedReader(local.dynamo(), f.config("filters").categories(Set.of("Account"))
                .eventTypes(Set.of("Opened")).loadBodies(false).build(), handler).runUntilCaughtUp(Duration.ofSeconds(30));

        assertThat(r.caughtUp()).isTrue();
        assertThat(handler.byStream.keySet()).extracting(StreamName::category).containsOnly("Account");
        assertThat(handler.byStream.values()).allSatisfy(events -> {
            assertThat(events).extracting(FeedEvent::type).containsOnly("Opened");
            assertThat(events).allSatisfy(e -> assertThat(e.hasBody()).isFalse());
        });
        assertThat(handler.indices("Account-0")).containsExactly(0L);
    }

    @Test
    void restart_resumes_from_the_committed_checkpoint(LocalDynamo local) {
        FeedFixture f = new FeedFixture(local, 1);
        f.ingest(f.write("Account-1", "Opened"), f.write("Account-2", "Opened"));
        Recorder first = new Recorder();
        assertThat(new FeedReader(local.dynamo(), f.config("resume").build(), first).runUntilCaughtUp(Duration.ofSeconds(20))
                .caughtUp()).isTrue();
        f.closeEpoch(0);
        f.ingest(f.write("Account-1", "Changed"));

        Recorder second = new Recorder();
        CatchUpResult r = new FeedReader(local.dynamo(), f.config("resume").build(), second).runUntilCaughtUp(Duration.ofSeconds(20));

        assertThat(r.caughtUp()).isTrue();
        assertThat(first.total()).isEqualTo(2);
        assertThat(second.byStream).containsOnlyKeys(StreamName.parse("Account-1"));
        assertThat(second.indices("Account-1")).containsExactly(1L);
        assertThat(new DynamoCheckpointStore(local.dynamo(), f.indexTable, java.time.Clock.systemUTC())
                .read("resume", PartitionId.ZERO)).get().extracting(StoredCheckpoint::checkpoint).isEqualTo(Checkpoint.of(1, 1));
    }

    @Test
    void start_from_the_tail_hands_over_only_events_indexed_later(LocalDynamo local) {
        FeedFixture f = new FeedFixture(local, 1);
        f.ingest(f.write("Account-1", "Opened"));
        f.closeEpoch(0);
        f.ingest(f.write("Account-1", "Changed"));
        Recorder handler = new Recorder();
        try (FeedReader reader = new FeedReader(local.dynamo(), f.config("tail").start(StartPosition.tail()).build(), handler)) {
            reader.start();
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10))
                    .until(() -> reader.lag().stream().allMatch(l -> l.state() == PartitionLag.State.READING));
            f.ingest(f.write("Account-1", "Closed"));
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> handler.total() == 1);
        }
        assertThat(handler.indices("Account-1")).containsExactly(2L);
    }

    @Test
    void a_span_ahead_of_the_store_is_retried_and_never_handed_over_with_a_gap(LocalDynamo local) {
        FeedFixture f = new FeedFixture(local, 1);
        f.ingest(f.write("Account-1", "Opened"), new Span(StreamName.parse("Account-2"), 0, List.of("Opened", "Changed")));
        Recorder handler = new Recorder();
        try (FeedReader reader = new FeedReader(local.dynamo(), f.config("lagging").parkAfterAttempts(1000).build(), handler)) {
            reader.start();
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10))
                    .until(() -> handler.total() == 1 && reader.lag().get(0).failingStreams() == 1);
            assertThat(reader.lag()).singleElement().satisfies(l -> assertThat(l.handled()).isEqualTo(Checkpoint.START));
            f.write("Account-2", "Opened", "Changed");
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> handler.total() == 3);
        }
        assertThat(handler.indices("Account-2")).containsExactly(0L, 1L);
        assertThat(handler.calls.get(StreamName.parse("Account-2"))).hasValue(1);
    }
}

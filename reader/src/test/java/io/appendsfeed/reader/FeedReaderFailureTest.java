package io.appendsfeed.reader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import io.appendsfeed.reader.ParkedStreams.ParkedStream;
import io.appendsfeed.reader.StreamHandler.HandlerResult;
import io.appendsfeed.reader.StreamHandler.FeedEvent;
import io.appendsfeed.reader.FeedReader.CatchUpResult;
import io.appendsfeed.reader.FeedReader.PartitionLag;

@ExtendWith(LocalDynamoExtension.class)
class FeedReaderFailureTest {

    @Test
    void a_crash_between_handling_and_commit_redelivers_and_the_reached_position_prevents_double_application(LocalDynamo local) {
        FeedFixture f = new FeedFixture(local, 1);
        for (int k = 0; k < 4; k++) {
            f.ingest(f.write("Account-1", "Changed"), f.write("Account-2", "Changed"));
        }
        // the projection: how far each stream is applied, and how often each event was applied
        Map<StreamName, Long> applied = new ConcurrentHashMap<>();
        Map<String, AtomicInteger> applications = new ConcurrentHashMap<>();
        class Projection extends Recorder {
            @Override
            HandlerResult apply(StreamName stream, List<FeedEvent> events) {
                long version = applied.getOrDefault(stream, 0L);
                for (FeedEvent e : events) {
                    if (e.index() == version) {
                        applications.computeIfAbsent(e.toString(), x -> new AtomicInteger()).incrementAndGet();
                        version++;
                    }
                }
                applied.put(stream, version);
                return HandlerResult.reached(Math.max(version, events.get(events.size() - 1).index() + 1));
            }
        }
        Projection beforeCrash = new Projection();
        FeedReaderConfig crashing = f.config("crash").leases(false).commitInterval(Duration.ofMinutes(10)).maxBatchEvents(1).build();
        FeedReader crashed = new FeedReader(local.dynamo(), crashing, beforeCrash);
        crashed.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> beforeCrash.total() == 8);
        // the instance dies here: it handled everything and committed nothing

        Projection afterCrash = new Projection();
        CatchUpResult r = new FeedReader(local.dynamo(), f.config("crash").leases(false).maxBatchEvents(1).build(), afterCrash)
                .runUntilCaughtUp(Duration.ofSeconds(20));

        assertThat(r.caughtUp()).isTrue();
        assertThat(afterCrash.total()).as("redelivered").isPositive();
        assertThat(afterCrash.calls.values()).as("the reached position skips the rest of each stream")
                .allSatisfy(n -> assertThat(n).hasValue(1));
        assertThat(applications).hasSize(8).allSatisfy((event, n) -> assertThat(n).as(event).hasValue(1));
        assertThat(r.lag().get(0).committed()).isEqualTo(Checkpoint.of(0, 4));
        crashed.close();
    }

    @Test
    void a_failing_stream_is_parked_durably_the_others_complete_and_release_replays_it_in_order(LocalDynamo local) {
        FeedFixture f = new FeedFixture(local, 1);
        AtomicBoolean broken = new AtomicBoolean(true);
        Recorder handler = new Recorder() {
            @Override
            HandlerResult apply(StreamName stream, List<FeedEvent> events) {
                if (stream.value().equals("Order-9") && broken.get()) {
                    throw new IllegalStateException("no price for " + events.get(0));
                }
                return HandlerResult.handled();
            }
        };
        f.ingest(f.write("Order-9", "Placed"), f.write("Account-1", "Opened"));
        f.ingest(f.write("Order-9", "Paid"), f.write("Account-1", "Changed"));
        try (FeedReader reader = new FeedReader(local.dynamo(), f.config("parking").parkAfterAttempts(3).build(), handler)) {
            reader.start();
            // handled is null while the partition is still STARTING
            await().atMost(Duration.ofSeconds(10)).until(() -> Checkpoint.of(0, 2).equals(reader.lag().get(0).handled()));
            assertThat(handler.indices("Account-1")).containsExactly(0L, 1L);
            assertThat(handler.indices("Order-9")).isEmpty();
            assertThat(reader.parked()).singleElement().satisfies(p -> {
                assertThat(p.stream().value()).isEqualTo("Order-9");
                assertThat(p.fromIndex()).isZero();
                assertThat(p.position()).isEqualTo(Checkpoint.of(0, 0));
                assertThat(p.attempts()).isEqualTo(3);
                assertThat(p.reason()).contains("no price for Order-9@0:Placed");
            });
            f.ingest(f.write("Order-9", "Shipped"));
            await().atMost(Duration.ofSeconds(10)).until(() -> reader.lag().get(0).handled().equals(Checkpoint.of(0, 3)));
            assertThat(handler.indices("Order-9")).as("later events wait behind the parked stream").isEmpty();

            broken.set(false);
            assertThat(reader.release(StreamName.parse("Order-9"), "test")).isTrue();
            await().atMost(Duration.ofSeconds(10)).until(() -> handler.indices("Order-9").size() == 3);
            assertThat(reader.parked()).isEmpty();
            f.ingest(f.write("Order-9", "Delivered"));
            await().atMost(Duration.ofSeconds(10)).until(() -> handler.indices("Order-9").size() == 4);
        }
        assertThat(handler.indices("Order-9")).containsExactly(0L, 1L, 2L, 3L);
        assertThat(handler.byStream.get(StreamName.parse("Order-9"))).extracting(FeedEvent::type)
                .containsExactly("Placed", "Paid", "Shipped", "Delivered");
    }

    @Test
    void a_parked_stream_survives_a_restart_and_still_holds_its_later_events(LocalDynamo local) {
        FeedFixture f = new FeedFixture(local, 1);
        Recorder failing = new Recorder() {
            @Override
            HandlerResult apply(StreamName stream, List<FeedEvent> events) {
                throw new IllegalStateException("down");
            }
        };
        f.ingest(f.write("Order-1", "Placed"));
        assertThat(new FeedReader(local.dynamo(), f.config("restart-parked").parkAfterAttempts(2).build(), failing)
                .runUntilCaughtUp(Duration.ofSeconds(20)).caughtUp()).isTrue();
        f.ingest(f.write("Order-1", "Paid"));

        Recorder healthy = new Recorder();
        CatchUpResult r = new FeedReader(local.dynamo(), f.config("restart-parked").build(), healthy)
                .runUntilCaughtUp(Duration.ofSeconds(20));

        assertThat(r.caughtUp()).isTrue();
        assertThat(healthy.total()).isZero();
        assertThat(new DynamoParkedStreams(local.dynamo(), f.indexTable, java.time.Clock.systemUTC()).list("restart-parked"))
                .extracting(p -> p.stream().value(), ParkedStream::fromIndex).containsExactly(org.assertj.core.groups.Tuple.tuple("Order-1", 0L));
    }

    @Test
    void an_epoch_event_of_an_unknown_type_stops_the_partition_without_skipping_it(LocalDynamo local) {
        FeedFixture f = new FeedFixture(local, 1);
        f.ingest(f.write("Account-1", "Opened"));
        f.unknownEpochEvent(0, "Rebalanced");
        f.ingest(f.write("Account-1", "Changed"));
        Recorder handler = new Recorder();

        CatchUpResult r = new FeedReader(local.dynamo(), f.config("newer").build(), handler).runUntilCaughtUp(Duration.ofSeconds(20));

        assertThat(r.caughtUp()).isFalse();
        assertThat(r.lag()).singleElement().satisfies(l -> {
            assertThat(l.state()).isEqualTo(PartitionLag.State.FAILED);
            assertThat(l.error()).contains("Rebalanced").contains("upgrade");
            assertThat(l.committed()).isEqualTo(Checkpoint.of(0, 1));
        });
        assertThat(handler.indices("Account-1")).containsExactly(0L);
    }
}

package io.appendsfeed.reader;

import static org.assertj.core.api.Assertions.assertThat;

import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import io.appendsfeed.model.feed.FeedPositions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import io.appendsfeed.reader.CheckpointStore.StoredCheckpoint;
import io.appendsfeed.reader.StreamHandler.FeedEvent;
import io.appendsfeed.reader.FeedReader.CatchUpResult;

@ExtendWith(LocalDynamoExtension.class)
class FeedReaderStartTest {

    private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

    private static Instant at(int seconds) {
        return T0.plusSeconds(seconds);
    }

    /**
     * Three epochs. Store write times (w) and index times (t) in seconds after T0; the start time
     * is 15. Event Order-1@1 was written at 14 but indexed at 20: before the start time, in an
     * epoch event after it.
     */
    private static FeedFixture feed(LocalDynamo local) {
        FeedFixture f = new FeedFixture(local, 1);
        f.ingest(at(1), f.write("Order-1", at(0), "Placed"));                        // 0/0
        f.ingest(at(2), f.write("Order-2", at(1), "Placed"));                        // 0/1
        f.closeEpoch(0, at(3));                                                       // 0/2
        f.ingest(at(10), f.write("Order-3", at(9), "Placed"));                       // 1/0
        f.ingest(at(20), f.write("Order-1", at(14), "Paid"), f.write("Order-4", at(16), "Placed")); // 1/1
        f.closeEpoch(0, at(21));                                                      // 1/2
        f.ingest(at(30), f.write("Order-2", at(29), "Paid"));                        // 2/0
        return f;
    }

    @Test
    void the_start_for_a_time_is_the_first_epoch_event_indexed_at_or_after_it(LocalDynamo local) {
        FeedFixture f = feed(local);
        FeedPositions positions = new FeedPositions(f.index);
        PartitionId p = PartitionId.ZERO;

        assertThat(positions.firstIndexedAtOrAfter(p, at(15))).isEqualTo(Checkpoint.of(1, 1));
        assertThat(positions.firstIndexedAtOrAfter(p, at(20))).isEqualTo(Checkpoint.of(1, 1));
        assertThat(positions.firstIndexedAtOrAfter(p, at(10))).isEqualTo(Checkpoint.of(1, 0));
        assertThat(positions.firstIndexedAtOrAfter(p, at(2))).isEqualTo(Checkpoint.of(0, 1));
        assertThat(positions.firstIndexedAtOrAfter(p, at(-5))).isEqualTo(Checkpoint.START);
        assertThat(positions.firstIndexedAtOrAfter(p, at(22))).isEqualTo(Checkpoint.of(2, 0));
        assertThat(positions.firstIndexedAtOrAfter(p, at(99))).isEqualTo(Checkpoint.of(2, 1));
        assertThat(positions.tail(p)).isEqualTo(Checkpoint.of(2, 1));
    }

    @Test
    void start_from_a_time_gives_exactly_the_events_written_from_that_time_on(LocalDynamo local) {
        FeedFixture f = feed(local);
        Recorder handler = new Recorder();

        CatchUpResult r = new FeedReader(local.dynamo(), f.config("from-time").start(StartPosition.time(at(15))).build(), handler)
                .runUntilCaughtUp(Duration.ofSeconds(20));

        assertThat(r.caughtUp()).isTrue();
        assertThat(handler.byStream.values().stream().flatMap(List::stream).map(FeedEvent::toString).sorted())
                .containsExactly("Order-2@1:Paid", "Order-4@0:Placed");
        assertThat(handler.byStream.values().stream().flatMap(List::stream))
                .allSatisfy(e -> assertThat(e.timestamp()).isAfterOrEqualTo(at(15)));
    }

    @Test
    void without_bodies_a_time_start_may_add_events_written_just_before_it_and_misses_none_after(LocalDynamo local) {
        FeedFixture f = feed(local);
        Recorder handler = new Recorder();

        new FeedReader(local.dynamo(), f.config("from-time-types").start(StartPosition.time(at(15))).loadBodies(false).build(),
                handler).runUntilCaughtUp(Duration.ofSeconds(20));

        assertThat(handler.byStream.values().stream().flatMap(List::stream).map(FeedEvent::toString).sorted())
                .containsExactly("Order-1@1:Paid", "Order-2@1:Paid", "Order-4@0:Placed");
    }

    @Test
    void an_explicit_start_overrides_the_stored_checkpoint_and_records_it(LocalDynamo local) {
        FeedFixture f = feed(local);
        assertThat(new FeedReader(local.dynamo(), f.config("again").build(), new Recorder())
                .runUntilCaughtUp(Duration.ofSeconds(20)).caughtUp()).isTrue();
        Recorder handler = new Recorder();

        new FeedReader(local.dynamo(), f.config("again").start(StartPosition.beginning()).build(), handler)
                .runUntilCaughtUp(Duration.ofSeconds(20));

        assertThat(handler.total()).isEqualTo(6);
        DynamoCheckpointStore store = new DynamoCheckpointStore(local.dynamo(), f.indexTable, java.time.Clock.systemUTC());
        assertThat(store.overrides("again", PartitionId.ZERO)).singleElement().satisfies(o -> {
            assertThat(o.from()).isEqualTo(Checkpoint.of(2, 1));
            assertThat(o.to()).isEqualTo(Checkpoint.START);
            assertThat(o.reason()).contains("Beginning");
        });
        assertThat(store.read("again", PartitionId.ZERO)).get().extracting(StoredCheckpoint::checkpoint)
                .isEqualTo(Checkpoint.of(2, 1));
    }

    @Test
    void a_checkpoint_just_past_a_closed_epoch_continues_in_the_next_epoch(LocalDynamo local) {
        FeedFixture f = feed(local);
        Recorder handler = new Recorder();

        // 0/3 is epoch 0's length: the position right after its Closed (0/2)
        CatchUpResult r = new FeedReader(local.dynamo(), f.config("after-closed").start(StartPosition.at(Checkpoint.of(0, 3))).build(),
                handler).runUntilCaughtUp(Duration.ofSeconds(20));

        assertThat(r.caughtUp()).isTrue();
        assertThat(handler.byStream.values().stream().flatMap(List::stream).map(FeedEvent::toString).sorted())
                .containsExactly("Order-1@1:Paid", "Order-2@1:Paid", "Order-3@0:Placed", "Order-4@0:Placed");
    }
}

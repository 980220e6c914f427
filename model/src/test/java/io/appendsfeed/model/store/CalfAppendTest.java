package io.appendsfeed.model.store;

import static io.appendsfeed.model.store.StoreFixture.events;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.CapacityMeter.Capacity;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

@ExtendWith(LocalDynamoExtension.class)
class CalfAppendTest {

    private static final StreamName STREAM = StreamName.parse("$AppendsEpoch-0_0");

    private static StoreClient client(StoreFixture f) {
        return f.client(b -> b.reservedStreams(true).meter((op, table, c) -> {}));
    }

    /** A client whose meter adds up what its calls consumed. */
    private static StoreClient metered(StoreFixture f, AtomicReference<Capacity> spent) {
        return f.client(b -> b.reservedStreams(true).meter((op, table, c) -> spent.accumulateAndGet(c, Capacity::plus)));
    }

    private static Capacity take(AtomicReference<Capacity> spent) {
        return spent.getAndSet(Capacity.NONE);
    }

    @Test
    void each_append_is_an_item_of_its_own_and_the_tip_its_writer_moves_holds_only_the_version(LocalDynamo local) {
        StoreFixture f = StoreFixture.fresh(local);
        StoreClient client = client(f);

        var first = (AppendResult.Written) client.appendAsCalf(STREAM, 0, events("A", 2));
        var second = (AppendResult.Written) client.appendAsCalf(STREAM, 2, events("B", 3));
        assertThat(client.readTip(STREAM, true)).as("the Tip is left to the writer").isEmpty();
        client.ensureTip(STREAM, 5);

        assertThat(first.version()).isEqualTo(2);
        assertThat(second.version()).isEqualTo(5);
        assertThat(f.item(STREAM, 0).get("n").n()).isEqualTo("2");
        assertThat(f.item(STREAM, 2).get("n").n()).isEqualTo("5");
        assertThat(f.item(STREAM, 2).get("c").l()).hasSize(3);
        Tip tip = client.readTip(STREAM, true).orElseThrow();
        assertThat(tip.version()).isEqualTo(5);
        assertThat(tip.events()).isEmpty();
        Map<String, AttributeValue> raw = f.item(STREAM, Integer.MAX_VALUE);
        assertThat(raw.get("a").n()).isEqualTo("0");
        assertThat(raw.get("u").l()).isEmpty();
        assertThat(Long.parseLong(raw.get("b").n())).isGreaterThan(0);
        List<StoredEvent> all = client.readAll(STREAM, Read.forward(0));
        assertThat(all).extracting(StoredEvent::index).containsExactly(0L, 1L, 2L, 3L, 4L);
        assertThat(all).extracting(StoredEvent::type).containsExactly("AHappened", "AHappened", "BHappened", "BHappened", "BHappened");
        assertThat(client.readAll(STREAM, Read.forward(3))).extracting(StoredEvent::index).containsExactly(3L, 4L);
        assertThat(client.readAll(STREAM, Read.backward().limit(1))).extracting(StoredEvent::index).containsExactly(4L);
    }

    @Test
    void an_append_costs_its_own_items_bytes_however_long_the_stream(LocalDynamo local) {
        StoreFixture f = StoreFixture.fresh(local);
        AtomicReference<Capacity> spent = new AtomicReference<>(Capacity.NONE);
        StoreClient client = metered(f, spent);
        client.appendAsCalf(STREAM, 0, events("A", 1));
        for (int k = 1; k < 20; k++) {
            take(spent);
            client.appendAsCalf(STREAM, k, events("B", 1));
            // a small calf (1 WCU), however long the stream is: no reads
            assertThat(take(spent)).isEqualTo(new Capacity(0, 1));
        }
    }

    @Test
    void reading_forwards_from_where_an_append_began_is_one_query(LocalDynamo local) {
        StoreFixture f = StoreFixture.fresh(local);
        List<String> ops = new java.util.concurrent.CopyOnWriteArrayList<>();
        StoreClient client = f.client(b -> b.reservedStreams(true).meter((op, table, c) -> ops.add(op)));
        client.appendAsCalf(STREAM, 0, events("A", 2));
        client.appendAsCalf(STREAM, 2, events("B", 3));
        client.appendAsCalf(STREAM, 5, events("C", 1));
        client.ensureTip(STREAM, 6);

        ops.clear();
        assertThat(client.readAll(STREAM, Read.forward(2))).extracting(StoredEvent::index).containsExactly(2L, 3L, 4L, 5L);
        assertThat(ops).containsExactly("Query");
        ops.clear();
        assertThat(client.readAll(STREAM, Read.forward(6))).isEmpty(); // at the tail
        assertThat(ops).containsExactly("Query");
        ops.clear();
        // from inside an item: one more query fetches the item holding it
        assertThat(client.readAll(STREAM, Read.forward(3))).extracting(StoredEvent::index).containsExactly(3L, 4L, 5L);
        assertThat(ops).containsExactly("Query", "Query");
    }

    @Test
    void two_writers_at_one_version_exactly_one_wins(LocalDynamo local) {
        StoreFixture f = StoreFixture.fresh(local);
        StoreClient one = client(f);
        StoreClient two = client(f);
        one.appendAsCalf(STREAM, 0, events("A", 1));
        two.readAll(STREAM, Read.forward(0)); // both know version 1

        AppendResult a = one.appendAsCalf(STREAM, 1, events("B", 2));
        AppendResult b = two.appendAsCalf(STREAM, 1, events("C", 1));

        assertThat(a).isInstanceOf(AppendResult.Written.class);
        assertThat(b).isInstanceOf(AppendResult.Conflict.class);
        assertThat(client(f).readAll(STREAM, Read.forward(0))).extracting(StoredEvent::type).containsExactly("AHappened", "BHappened", "BHappened");
        // the loser catches up from the items and goes on after the winner
        assertThat(two.appendAsCalf(STREAM, 3, events("C", 1))).isInstanceOf(AppendResult.Written.class);
        two.ensureTip(STREAM, 4);
        assertThat(client(f).readTip(STREAM, true).orElseThrow().version()).isEqualTo(4);
    }

    @Test
    void a_refused_calf_writes_nothing_and_the_loser_appends_after_the_winner(LocalDynamo local) {
        StoreFixture f = StoreFixture.fresh(local);
        StoreClient one = client(f);
        StoreClient two = client(f);
        one.appendAsCalf(STREAM, 0, events("A", 1));
        assertThat(two.appendAsCalf(STREAM, 0, events("X", 1))).isInstanceOf(AppendResult.Conflict.class);
        assertThat(one.appendAsCalf(STREAM, 1, events("B", 2))).isInstanceOf(AppendResult.Written.class);

        assertThat(two.appendAsCalf(STREAM, 1, events("C", 1))).isInstanceOf(AppendResult.Conflict.class);

        assertThat(two.appendAsCalf(STREAM, 3, events("C", 1))).isInstanceOf(AppendResult.Written.class);
        assertThat(client(f).readAll(STREAM, Read.forward(0))).extracting(StoredEvent::type)
                .containsExactly("AHappened", "BHappened", "BHappened", "CHappened");
    }

    @Test
    void a_writer_behind_the_tip_conflicts_without_writing(LocalDynamo local) {
        StoreFixture f = StoreFixture.fresh(local);
        StoreClient writer = client(f);
        writer.appendAsCalf(STREAM, 0, events("A", 3));
        writer.ensureTip(STREAM, 3);
        StoreClient stale = client(f);
        assertThat(stale.appendAsCalf(STREAM, 1, events("X", 1))).isInstanceOf(AppendResult.Conflict.class);
        assertThat(f.item(STREAM, 1)).isNull();
    }

    @Test
    void a_tip_holding_events_is_drained_into_a_calf_once_then_appends_go_calf_first(LocalDynamo local) {
        StoreFixture f = StoreFixture.fresh(local);
        StoreClient client = client(f);
        client.append(STREAM, Expected.noStream(), events("Old", 3));

        assertThat(client.appendAsCalf(STREAM, 3, events("New", 2))).isInstanceOf(AppendResult.Written.class);
        assertThat(client.appendAsCalf(STREAM, 5, events("Newer", 1))).isInstanceOf(AppendResult.Written.class);

        assertThat(f.item(STREAM, 0).get("c").l()).hasSize(3);
        assertThat(client.readTip(STREAM, true).orElseThrow().events()).isEmpty();
        assertThat(client.readAll(STREAM, Read.forward(0))).extracting(StoredEvent::type)
                .containsExactly("OldHappened", "OldHappened", "OldHappened", "NewHappened", "NewHappened", "NewerHappened");
    }

    @Test
    void a_calf_left_ahead_of_its_tip_is_moved_to_later_and_a_tip_first_write_there_is_refused_when_it_moves(LocalDynamo local) {
        StoreFixture f = StoreFixture.fresh(local);
        AtomicReference<Capacity> spent = new AtomicReference<>(Capacity.NONE);
        StoreClient calfFirst = metered(f, spent);
        calfFirst.appendAsCalf(STREAM, 0, events("A", 2));
        calfFirst.ensureTip(STREAM, 2);
        take(spent);
        calfFirst.appendAsCalf(STREAM, 2, events("B", 1));
        assertThat(take(spent)).as("the calf alone").isEqualTo(new Capacity(0, 1));
        assertThat(client(f).readTip(STREAM, true).orElseThrow().version()).as("left behind").isEqualTo(2);
        assertThat(client(f).moveTipToCalves(STREAM)).isTrue();
        assertThat(client(f).readTip(STREAM, true).orElseThrow().version()).isEqualTo(3);
        assertThat(client(f).moveTipToCalves(STREAM)).as("already there").isFalse();

        calfFirst.appendAsCalf(STREAM, 3, events("C", 1));
        client(f).append(STREAM, Expected.version(3), events("TipFirst", 1)); // at the Tip left behind

        assertThatThrownBy(() -> calfFirst.ensureTip(STREAM, 4)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Tip-first writer appended events 3..3").hasMessageContaining("Only one kind of writer");
    }

    @Test
    void ensure_tip_brings_a_tip_behind_its_calves_up_to_them_and_only_forwards(LocalDynamo local) {
        StoreFixture f = StoreFixture.fresh(local);
        StoreClient writer = client(f);
        writer.appendAsCalf(STREAM, 0, events("A", 1));
        writer.ensureTip(STREAM, 1);
        Map<String, AttributeValue> tipAt1 = f.tip(STREAM);
        writer.appendAsCalf(STREAM, 1, events("B", 2));
        writer.ensureTip(STREAM, 3);
        f.put(tipAt1); // as a writer that died between its calf and the Tip leaves it

        AtomicReference<Capacity> spent = new AtomicReference<>(Capacity.NONE);
        StoreClient loader = metered(f, spent);
        assertThat(loader.readAll(STREAM, Read.forward(0))).hasSize(3); // a load sees the calves, and the Tip behind them
        take(spent);
        loader.ensureTip(STREAM, 3);
        assertThat(take(spent)).as("one Tip write").isEqualTo(new Capacity(0, 1));
        assertThat(client(f).readTip(STREAM, true).orElseThrow().version()).isEqualTo(3);
        loader.ensureTip(STREAM, 3);
        assertThat(take(spent)).as("known to be there: nothing").isEqualTo(Capacity.NONE);

        // a client that knows nothing of the Tip writes once, and the condition keeps it from going back
        StoreClient stranger = metered(f, spent);
        stranger.ensureTip(STREAM, 2);
        assertThat(client(f).readTip(STREAM, true).orElseThrow().version()).isEqualTo(3);
        take(spent);
        stranger.ensureTip(STREAM, 2);
        assertThat(take(spent)).as("it knows now").isEqualTo(Capacity.NONE);
    }

    @Test
    void ensure_tip_creates_the_tip_of_a_stream_that_has_calves_only(LocalDynamo local) {
        StoreFixture f = StoreFixture.fresh(local);
        client(f).appendAsCalf(STREAM, 0, events("A", 2));
        StoreClient loader = client(f);
        assertThat(loader.readAll(STREAM, Read.forward(0))).hasSize(2);
        assertThat(client(f).readTip(STREAM, true)).as("no Tip: Tip-first readers see no stream").isEmpty();

        loader.ensureTip(STREAM, 2);

        Map<String, AttributeValue> tip = f.tip(STREAM);
        assertThat(tip.get("n").n()).isEqualTo("2");
        assertThat(tip.get("e").l()).isEmpty();
    }

    @Test
    void events_that_cannot_fit_one_item_are_refused_before_any_write(LocalDynamo local) {
        StoreFixture f = StoreFixture.fresh(local);
        List<EventData> huge = new ArrayList<>();
        for (int k = 0; k < 5; k++) {
            huge.add(EventData.of("Big", new byte[100_000]));
        }
        StoreClient client = f.client(b -> b.reservedStreams(true).compress(false));
        assertThatThrownBy(() -> client.appendAsCalf(STREAM, 0, huge)).isInstanceOf(ItemTooLargeException.class);
        assertThat(client.readTip(STREAM, true)).isEmpty();
        assertThat(f.item(STREAM, 0)).isNull();
    }
}

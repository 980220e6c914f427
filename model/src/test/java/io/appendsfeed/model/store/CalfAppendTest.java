package io.appendsfeed.model.store;

import static io.appendsfeed.model.store.StoreFixture.events;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.CapacityMeter.Capacity;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import io.appendsfeed.model.testing.faults.Fault;
import io.appendsfeed.model.testing.faults.FaultInjector;
import io.appendsfeed.model.testing.faults.FaultPlan;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

@ExtendWith(LocalDynamoExtension.class)
class CalfAppendTest {

    private static final StreamName STREAM = StreamName.parse("$AppendsEpoch-0_0");

    private static StoreClient client(StoreFixture f) {
        return f.client(b -> b.reservedStreams(true).meter((op, table, c) -> {}));
    }

    @Test
    void each_append_is_an_item_of_its_own_and_the_tip_holds_only_the_version(LocalDynamo local) {
        StoreFixture f = StoreFixture.fresh(local);
        StoreClient client = client(f);

        var first = (AppendResult.Written) client.appendAsCalf(STREAM, 0, events("A", 2));
        var second = (AppendResult.Written) client.appendAsCalf(STREAM, 2, events("B", 3));

        assertThat(first.version()).isEqualTo(2);
        assertThat(second.version()).isEqualTo(5);
        assertThat(f.item(STREAM, 0).get("n").n()).isEqualTo("2");
        assertThat(f.item(STREAM, 2).get("n").n()).isEqualTo("5");
        assertThat(f.item(STREAM, 2).get("c").l()).hasSize(3);
        Tip tip = client.readTip(STREAM, true).orElseThrow();
        assertThat(tip.version()).isEqualTo(5);
        assertThat(tip.events()).isEmpty();
        assertThat(tip.etag()).isEqualTo(second.etag());
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
    void an_append_costs_its_own_items_bytes_and_one_unit_for_the_tip(LocalDynamo local) {
        StoreFixture f = StoreFixture.fresh(local);
        StoreClient client = client(f);
        client.appendAsCalf(STREAM, 0, events("A", 1));
        for (int k = 1; k < 20; k++) {
            var w = (AppendResult.Written) client.appendAsCalf(STREAM, k, events("B", 1));
            // a small calf (1 WCU) and a Tip with no events (1 WCU), however long the stream is: no reads
            assertThat(w.capacity()).isEqualTo(new Capacity(0, 2));
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
        assertThat(client(f).readTip(STREAM, true).orElseThrow().version()).isEqualTo(4);
    }

    @Test
    void a_writer_behind_the_tip_conflicts_without_writing(LocalDynamo local) {
        StoreFixture f = StoreFixture.fresh(local);
        client(f).appendAsCalf(STREAM, 0, events("A", 3));
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
    void when_the_tip_update_fails_the_events_are_in_and_the_next_append_brings_the_tip_up_to_date(LocalDynamo local) {
        StoreFixture f = StoreFixture.fresh(local);
        FaultInjector faults = new FaultInjector(FaultPlan.builder().calls("UpdateItem", 2, 2, Fault.failBefore()).build());
        StoreClient client = new StoreClient(faults.wrap(local.dynamo()), StoreConfig.builder(f.table).reservedStreams(true).build());
        client.appendAsCalf(STREAM, 0, events("A", 1));

        assertThat(client.appendAsCalf(STREAM, 1, events("B", 1))).isInstanceOf(AppendResult.Written.class);
        assertThat(client(f).readTip(STREAM, true).orElseThrow().version()).isEqualTo(1); // lagging
        assertThat(client(f).readAll(STREAM, Read.forward(0))).extracting(StoredEvent::type).containsExactly("AHappened", "BHappened");

        assertThat(client.appendAsCalf(STREAM, 2, events("C", 1))).isInstanceOf(AppendResult.Written.class);
        assertThat(client(f).readTip(STREAM, true).orElseThrow().version()).isEqualTo(3);
        assertThat(client(f).readAll(STREAM, Read.forward(0))).extracting(StoredEvent::type).containsExactly("AHappened", "BHappened", "CHappened");
    }

    @Test
    void an_append_that_meets_a_tip_first_writer_at_the_same_index_is_withdrawn_and_conflicts(LocalDynamo local) {
        StoreFixture f = StoreFixture.fresh(local);
        StoreClient calfFirst = client(f);
        calfFirst.appendAsCalf(STREAM, 0, events("A", 2));
        client(f).append(STREAM, Expected.version(2), events("TipFirst", 1));

        AppendResult r = calfFirst.appendAsCalf(STREAM, 2, events("B", 1));

        assertThat(r).isInstanceOf(AppendResult.Conflict.class);
        assertThat(((AppendResult.Conflict) r).actualVersion()).isEqualTo(3);
        assertThat(f.item(STREAM, 2)).as("the colliding calf is withdrawn").isNull();
        assertThat(client(f).readAll(STREAM, Read.forward(0))).extracting(StoredEvent::type)
                .containsExactly("AHappened", "AHappened", "TipFirstHappened");
        // decided again after the Tip-first writer's events, it goes on: the Tip is drained first
        assertThat(calfFirst.appendAsCalf(STREAM, 3, events("B", 1))).isInstanceOf(AppendResult.Written.class);
        assertThat(client(f).readAll(STREAM, Read.forward(0))).extracting(StoredEvent::type)
                .containsExactly("AHappened", "AHappened", "TipFirstHappened", "BHappened");
    }

    @Test
    void a_calf_left_ahead_of_its_tip_is_moved_to_later_and_a_tip_first_write_there_is_refused_when_it_moves(LocalDynamo local) {
        StoreFixture f = StoreFixture.fresh(local);
        StoreClient calfFirst = client(f);
        calfFirst.appendAsCalf(STREAM, 0, events("A", 2));
        var w = (AppendResult.Written) calfFirst.appendAsCalf(STREAM, 2, events("B", 1), false);
        assertThat(w.capacity()).as("the calf alone").isEqualTo(new Capacity(0, 1));
        assertThat(client(f).readTip(STREAM, true).orElseThrow().version()).as("left behind").isEqualTo(2);
        assertThat(client(f).moveTipToCalves(STREAM)).isTrue();
        assertThat(client(f).readTip(STREAM, true).orElseThrow().version()).isEqualTo(3);
        assertThat(client(f).moveTipToCalves(STREAM)).as("already there").isFalse();

        calfFirst.appendAsCalf(STREAM, 3, events("C", 1), false);
        client(f).append(STREAM, Expected.version(3), events("TipFirst", 1)); // at the Tip left behind

        assertThatThrownBy(() -> calfFirst.ensureTip(STREAM, 4)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Tip-first writer appended events 3..3").hasMessageContaining("Only one kind of writer");
    }

    @Test
    void every_append_moves_the_tip_to_its_end_for_the_calf_and_one_write_unit(LocalDynamo local) {
        StoreFixture f = StoreFixture.fresh(local);
        StoreClient client = client(f);
        client.appendAsCalf(STREAM, 0, events("A", 1));

        var w = (AppendResult.Written) client.appendAsCalf(STREAM, 1, events("B", 2));

        assertThat(w.version()).isEqualTo(3);
        assertThat(w.capacity()).as("the calf (1 WCU) and the Tip (1 WCU), no read").isEqualTo(new Capacity(0, 2));
        assertThat(client(f).readTip(STREAM, true).orElseThrow().version()).isEqualTo(3);
        assertThat(client(f).readAll(STREAM, Read.forward(0))).extracting(StoredEvent::type)
                .containsExactly("AHappened", "BHappened", "BHappened");
    }

    @Test
    void ensure_tip_brings_a_tip_behind_its_calves_up_to_them_and_only_forwards(LocalDynamo local) {
        StoreFixture f = StoreFixture.fresh(local);
        StoreClient writer = client(f);
        writer.appendAsCalf(STREAM, 0, events("A", 1));
        Map<String, AttributeValue> tipAt1 = f.tip(STREAM);
        writer.appendAsCalf(STREAM, 1, events("B", 2));
        f.put(tipAt1); // as a writer that died between its calf and the Tip leaves it

        StoreClient loader = client(f);
        assertThat(loader.readAll(STREAM, Read.forward(0))).hasSize(3); // a load sees the calves, and the Tip behind them
        assertThat(loader.ensureTip(STREAM, 3)).as("one Tip write").isEqualTo(new Capacity(0, 1));
        assertThat(client(f).readTip(STREAM, true).orElseThrow().version()).isEqualTo(3);
        assertThat(loader.ensureTip(STREAM, 3)).as("known to be there: nothing").isEqualTo(Capacity.NONE);

        // a client that knows nothing of the Tip writes once, and the condition keeps it from going back
        StoreClient stranger = client(f);
        stranger.ensureTip(STREAM, 2);
        assertThat(client(f).readTip(STREAM, true).orElseThrow().version()).isEqualTo(3);
        assertThat(stranger.ensureTip(STREAM, 2)).as("it knows now").isEqualTo(Capacity.NONE);
    }

    @Test
    void ensure_tip_creates_the_tip_of_a_stream_that_has_calves_only(LocalDynamo local) {
        StoreFixture f = StoreFixture.fresh(local);
        client(f).appendAsCalf(STREAM, 0, events("A", 2));
        local.dynamo().deleteItem(b -> b.tableName(f.table).key(Map.of("p", AttributeValue.fromS(STREAM.value()),
                "i", AttributeValue.fromN("2147483647"))));
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

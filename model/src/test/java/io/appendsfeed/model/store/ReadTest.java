package io.appendsfeed.model.store;

import static io.appendsfeed.model.store.StoreFixture.events;
import static org.assertj.core.api.Assertions.assertThat;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.StoreClient.StreamSlice;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(LocalDynamoExtension.class)
class ReadTest {

    private static final StreamName STREAM = StreamName.parse("Read-1");

    /** 20 events in appends of 2, Tip at most 4 events: calves at 0, 4, 8, 12 and the Tip holding 16..19. */
    private static StoreClient twentyEvents(StoreFixture f, CapacityMeter meter) {
        StoreClient client = f.client(c -> c.tipMaxEvents(4).queryPageItems(2).meter(meter));
        for (int k = 0; k < 10; k++) {
            client.append(STREAM, Expected.version(2L * k), events("E" + k, 2));
        }
        return client;
    }

    private static List<Long> indexes(List<StoredEvent> events) {
        return events.stream().map(StoredEvent::index).toList();
    }

    private static List<Long> range(long from, long to) {
        return LongStream.range(from, to).boxed().toList();
    }

    /** {@code from - 1} down to {@code to}. */
    private static List<Long> down(long from, long to) {
        return LongStream.range(to, from).map(k -> from - 1 - (k - to)).boxed().toList();
    }

    @Test
    void forward_from_any_index_returns_the_rest_in_order(LocalDynamo local) {
        StoreFixture f = StoreFixture.fresh(local);
        StoreClient client = twentyEvents(f, CapacityMeter.NONE);

        assertThat(f.items(STREAM)).hasSize(5);
        for (long from : List.of(0L, 1L, 4L, 6L, 15L, 16L, 19L, 20L, 25L)) {
            assertThat(indexes(client.readAll(STREAM, Read.forward(from)))).as("from " + from).isEqualTo(range(Math.min(from, 20), 20));
        }
        assertThat(client.readAll(STREAM, Read.forward(5).limit(3))).extracting(StoredEvent::index).containsExactly(5L, 6L, 7L);
        assertThat(client.readAll(STREAM, Read.forward(0))).extracting(StoredEvent::dataText)
                .startsWith("{\"k\":0,\"p\":\"E0\"}", "{\"k\":1,\"p\":\"E0\"}", "{\"k\":0,\"p\":\"E1\"}");
    }

    /**
     * A walker reading 5 events at a time over items of 12 (an equinox-js epoch holds dozens per item)
     * pays about what one read of everything pays: a read hands over every item its page fetched, so the
     * next starts where an item starts and no item is read twice.
     */
    @Test
    void walking_in_bounded_reads_over_items_of_many_events_costs_about_one_read_of_everything(LocalDynamo local) {
        StoreFixture f = StoreFixture.fresh(local);
        java.util.concurrent.atomic.DoubleAdder units = new java.util.concurrent.atomic.DoubleAdder();
        StoreClient client = f.client(c -> c.tipMaxEvents(12).meter((op, table, cap) -> units.add(cap.readUnits())));
        java.util.Random random = new java.util.Random(7);
        for (int k = 0; k < 60; k++) {
            byte[] a = new byte[1500];
            byte[] b = new byte[1500];
            random.nextBytes(a);
            random.nextBytes(b); // incompressible: items of about 18 KB, so a query's rounding is small beside them
            client.append(STREAM, Expected.version(2L * k), List.of(EventData.of("E", a), EventData.of("E", b)));
        }
        assertThat(f.items(STREAM).size()).isBetween(10, 12);

        units.reset();
        assertThat(client.readAll(STREAM, Read.forward(0))).hasSize(120);
        double once = units.sum();

        List<String> calls = new CopyOnWriteArrayList<>();
        StoreClient walker = f.client(c -> c.meter((op, table, cap) -> {
            units.add(cap.readUnits());
            calls.add(op);
        }));
        units.reset();
        List<Long> seen = new java.util.ArrayList<>();
        long from = 0;
        for (int reads = 0; from < 120; reads++) {
            assertThat(reads).as("reads").isLessThan(120);
            calls.clear();
            List<StoredEvent> got = walker.readAll(STREAM, Read.forward(from).limit(5).toItemEnd());
            // one page of as many items as could hold 5 events, all of it returned
            assertThat(calls).as("read " + reads + "'s queries").hasSize(1);
            assertThat(got).as("at least what was asked for, 6 items of up to 12 events at most")
                    .hasSizeBetween(Math.min(5, 120 - (int) from), 6 * 12);
            got.forEach(e -> seen.add(e.index()));
            from = got.get(got.size() - 1).index() + 1;
        }
        assertThat(seen).isEqualTo(range(0, 120));
        assertThat(units.sum()).as("walking (%s RCU) against one read of everything (%s RCU)", units.sum(), once)
                .isLessThanOrEqualTo(once * 1.5);
        // without toItemEnd, exactly the limit
        assertThat(walker.readAll(STREAM, Read.forward(13).limit(5))).extracting(StoredEvent::index).containsExactly(13L, 14L, 15L, 16L, 17L);
    }

    /**
     * A forward read that took the Tip says so (a walker then need not read again only to find
     * nothing), and asks for no page after it even when its last page came back full.
     */
    @Test
    void a_read_that_takes_the_tip_reached_the_end_and_queries_nothing_after_it(LocalDynamo local) {
        StoreFixture f = StoreFixture.fresh(local);
        List<String> calls = new CopyOnWriteArrayList<>();
        StoreClient client = twentyEvents(f, (op, table, capacity) -> calls.add(op));

        calls.clear();
        StreamSlice fromLastCalf = client.readSlice(STREAM, Read.forward(12)); // a page of 2 items: calf 12 and the Tip
        assertThat(indexes(fromLastCalf.events())).isEqualTo(range(12, 20));
        assertThat(fromLastCalf.atEnd()).isTrue();
        assertThat(calls).as("a full page ending on the Tip is not followed by an empty one").containsExactly("Query");

        assertThat(client.readSlice(STREAM, Read.forward(0)).atEnd()).isTrue();
        assertThat(client.readSlice(STREAM, Read.forward(20)).atEnd()).as("past the end: the Tip holds nothing new").isTrue();
        StreamSlice limited = client.readSlice(STREAM, Read.forward(0).limit(5));
        assertThat(indexes(limited.events())).isEqualTo(range(0, 5));
        assertThat(limited.atEnd()).as("stopped before the Tip").isFalse();
        assertThat(client.readSlice(STREAM, Read.forward(14).limit(2)).atEnd()).as("stopped before the Tip's events").isFalse();
        assertThat(client.readSlice(STREAM, Read.backward()).atEnd()).as("backwards").isFalse();
        assertThat(client.readSlice(StreamName.parse("Read-none"), Read.forward(0)).atEnd()).as("no Tip").isFalse();
    }

    @Test
    void backward_returns_newest_first_from_the_tip_or_before_an_index(LocalDynamo local) {
        StoreFixture f = StoreFixture.fresh(local);
        StoreClient client = twentyEvents(f, CapacityMeter.NONE);

        assertThat(indexes(client.readAll(STREAM, Read.backward()))).isEqualTo(down(20, 0));
        assertThat(indexes(client.readAll(STREAM, Read.backward(18)))).isEqualTo(down(18, 0));
        assertThat(indexes(client.readAll(STREAM, Read.backward(10).limit(3)))).containsExactly(9L, 8L, 7L);
        assertThat(indexes(client.readAll(STREAM, Read.backward(0)))).isEmpty();
        assertThat(indexes(client.readAll(STREAM, Read.backward().strongly().typesOnly()))).isEqualTo(down(20, 0));
    }

    @Test
    void types_only_reads_carry_no_bodies(LocalDynamo local) {
        StoreFixture f = StoreFixture.fresh(local);
        StoreClient client = twentyEvents(f, CapacityMeter.NONE);

        List<StoredEvent> events = client.readAll(STREAM, Read.forward(3).typesOnly());

        assertThat(indexes(events)).isEqualTo(range(3, 20));
        assertThat(events).allSatisfy(e -> {
            assertThat(e.data()).isNull();
            assertThat(e.meta()).isNull();
            assertThat(e.timestamp()).isNull();
        });
        assertThat(events.get(0).type()).isEqualTo("E1Happened");
    }

    @Test
    void a_missing_stream_reads_as_empty(LocalDynamo local) {
        StoreClient client = StoreFixture.fresh(local).client();

        assertThat(client.readAll(STREAM, Read.forward(0))).isEmpty();
        assertThat(client.readAll(STREAM, Read.forward(7).strongly())).isEmpty();
        assertThat(client.readAll(STREAM, Read.backward(3))).isEmpty();
        assertThat(client.readTip(STREAM, false)).isEmpty();
    }

    @Test
    void pages_are_fetched_only_as_the_stream_is_consumed(LocalDynamo local) {
        StoreFixture f = StoreFixture.fresh(local);
        List<String> calls = new CopyOnWriteArrayList<>();
        StoreClient client = twentyEvents(f, (op, table, capacity) -> calls.add(op));
        calls.clear();

        try (Stream<StoredEvent> events = client.read(STREAM, Read.forward(0))) {
            Iterator<StoredEvent> it = events.iterator();
            assertThat(calls).isEmpty();
            assertThat(it.next().index()).isZero();
            assertThat(calls).containsExactly("Query"); // one page: calves 0 and 4
            for (int k = 1; k < 8; k++) {
                it.next();
            }
            assertThat(calls).hasSize(1);
            assertThat(it.next().index()).isEqualTo(8);
            assertThat(calls).hasSize(2);
        }
        calls.clear();
        assertThat(indexes(client.readAll(STREAM, Read.forward(13)))).isEqualTo(range(13, 20));
        // one Query finds the calf holding 13 (without walking the older calves), one reads the Tip
        assertThat(calls).containsExactly("Query", "Query");
        calls.clear();
        assertThat(indexes(client.readAll(STREAM, Read.backward(6)))).isEqualTo(down(6, 0));
        // the Tip, then one page of two calves (4 and 0) and an empty last page
        assertThat(calls).containsExactly("Query", "Query", "Query");
    }

    @Test
    void reading_the_tip_fills_the_cache_so_the_next_append_needs_no_read(LocalDynamo local) {
        StoreFixture f = StoreFixture.fresh(local);
        f.client().append(STREAM, Expected.noStream(), events("A", 3));
        List<String> calls = new CopyOnWriteArrayList<>();
        StoreClient client = f.client(c -> c.meter((op, table, capacity) -> calls.add(op)));

        client.readAll(STREAM, Read.backward().limit(1));
        client.append(STREAM, Expected.version(3), events("B", 1));

        assertThat(calls).containsExactly("Query", "UpdateItem");
    }
}

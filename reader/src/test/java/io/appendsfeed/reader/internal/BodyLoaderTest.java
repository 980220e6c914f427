package io.appendsfeed.reader.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.feed.Span;
import io.appendsfeed.model.store.StoreItems;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import io.appendsfeed.reader.StreamHandler.FeedEvent;
import io.appendsfeed.reader.FeedFixture;
import io.appendsfeed.reader.MissingEventsException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/** Body loads against DynamoDB Local: exact events, each store item read once, misses never handed over. */
@ExtendWith(LocalDynamoExtension.class)
class BodyLoaderTest {

    private static final int TIP_MAX_BYTES = 600; // a few events per item: streams calve often

    /** Counts the store items each request returned, by stream and range key. */
    private static final class Counting implements DynamoDbClient {
        final DynamoDbClient dynamo;
        final Map<String, AtomicInteger> reads = new ConcurrentHashMap<>();
        final AtomicInteger requests = new AtomicInteger();
        final AtomicInteger queries = new AtomicInteger();

        Counting(DynamoDbClient dynamo) {
            this.dynamo = dynamo;
        }

        @Override
        public QueryResponse query(QueryRequest r) {
            QueryResponse out = dynamo.query(r);
            requests.incrementAndGet();
            queries.incrementAndGet();
            out.items().forEach(this::count);
            return out;
        }

        @Override
        public BatchGetItemResponse batchGetItem(BatchGetItemRequest r) {
            BatchGetItemResponse out = dynamo.batchGetItem(r);
            requests.incrementAndGet();
            out.responses().values().forEach(items -> items.forEach(this::count));
            return out;
        }

        private void count(Map<String, AttributeValue> item) {
            reads.computeIfAbsent(item.get("p").s() + "/" + StoreItems.rangeKey(item), k -> new AtomicInteger()).incrementAndGet();
        }

        @Override
        public String serviceName() {
            return dynamo.serviceName();
        }

        @Override
        public void close() {
            // the wrapped client belongs to the test's LocalDynamo
        }
    }

    private final Progress slot = new Progress(PartitionId.ZERO, Checkpoint.START, null);

    private StreamCall.Work work(Span span) {
        List<FeedEvent> events = new ArrayList<>();
        for (int k = 0; k < span.count(); k++) {
            events.add(FeedEvent.typeOnly(span.stream(), span.index() + k, span.types().get(k)));
        }
        return new StreamCall.Work(span.stream(), slot, events, Checkpoint.START, 0, 0, -1);
    }

    private static List<String> bodies(BodyLoader.Loaded loaded) throws Exception {
        return loaded.events().stream().map(e -> e.index() + ":" + e.type() + ":" + e.dataText()).toList();
    }

    @Test
    void spans_of_calved_and_tip_only_streams_come_with_their_bodies_and_each_item_is_read_once(LocalDynamo local) throws Exception {
        FeedFixture f = new FeedFixture(local, 1, TIP_MAX_BYTES);
        List<Span> hot = new ArrayList<>();
        for (int k = 0; k < 12; k++) {
            hot.add(f.write("Hot-1", (Instant) null, "A", "B", "C"));
        }
        Span cold = f.write("Cold-1", (Instant) null, "X", "Y");
        Counting dynamo = new Counting(local.dynamo());
        BodyLoader loader = new BodyLoader(new StoreClient(dynamo, f.store.config()));

        // spans in feed order, a few calls at a time, as the scheduler hands them over
        List<String> got = new ArrayList<>();
        StreamCall.Work coldWork = work(cold);
        StreamCall.Work hotWork = work(hot.get(0));
        Map<StreamCall.Work, BodyLoader.Loaded> first = loader.loadAll(List.of(hotWork, coldWork));
        got.addAll(bodies(first.get(hotWork)));
        assertThat(bodies(first.get(coldWork))).containsExactly(
                "0:X:{\"stream\":\"Cold-1\",\"n\":0}", "1:Y:{\"stream\":\"Cold-1\",\"n\":1}");
        for (int k = 1; k < hot.size(); k += 2) {
            Span a = hot.get(k);
            Span b = k + 1 < hot.size() ? hot.get(k + 1) : null;
            Span merged = b == null ? a : new Span(a.stream(), a.index(), concat(a.types(), b.types()));
            got.addAll(bodies(loader.loadAll(List.of(work(merged))).values().iterator().next()));
        }

        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 36; i++) {
            expected.add(i + ":" + "ABC".charAt(i % 3) + ":{\"stream\":\"Hot-1\",\"n\":" + i + "}");
        }
        assertThat(got).containsExactlyElementsOf(expected);
        assertThat(dynamo.reads).as("store items read, by stream/range key").allSatisfy((key, n) -> assertThat(n).as(key).hasValue(1));
        assertThat(dynamo.reads.keySet()).as("calves were read too").anyMatch(k -> k.startsWith("Hot-1/") && !k.endsWith("/2147483647"));
    }

    /**
     * A range that ends in a calf before the Tip reads its calves and at most
     * {@value ItemRangeReader#READ_AHEAD_ITEMS} calves after them in the same query, and never the Tip
     * (known from the Tip read first, and kept): DynamoDB rounds a query's items together, and the
     * stream's next load finds the calves read ahead in the cache. Unbounded, the query's growing pages
     * (1, 2, 4, ... items) read, and DynamoDB charged, the Tip again; one calf at a time, each calf was
     * rounded up to 4 KB on its own.
     */
    @Test
    void a_range_ending_before_the_tip_reads_a_few_calves_ahead_and_not_the_tip_again(LocalDynamo local) throws Exception {
        FeedFixture f = new FeedFixture(local, 1, TIP_MAX_BYTES);
        List<Long> calves = writeHot(local, f, "Hot-2", 48);
        long tipFirst = tipFirst(local, f, "Hot-2");
        assertThat(calves).as("calves").hasSizeGreaterThan(5);
        long last = calves.get(calves.size() - 3) - 1; // the range ends two calves before the last one
        Counting dynamo = new Counting(local.dynamo());
        BodyLoader loader = new BodyLoader(new StoreClient(dynamo, f.store.config()));
        Map<StreamCall.Work, BodyLoader.Loaded> loaded = loader.loadAll(List.of(work(new Span(StreamName.parse("Hot-2"), 0, types(0, last)))));

        assertThat(bodies(loaded.values().iterator().next())).hasSize((int) last + 1);
        long wantedLast = last;
        assertThat(dynamo.reads).as("items read, by range key: each once").allSatisfy((key, n) -> assertThat(n).as(key).hasValue(1));
        assertThat(dynamo.reads.keySet()).as("calves read ahead, past the range")
                .filteredOn(k -> !k.endsWith("/2147483647") && Long.parseLong(k.substring(k.indexOf('/') + 1)) > wantedLast)
                .hasSizeBetween(1, ItemRangeReader.READ_AHEAD_ITEMS);
        assertThat(tipFirst).isGreaterThan(last);

        // the stream's next load, up to the Tip: the calves read ahead come from the cache, the Tip too
        int before = dynamo.requests.get();
        List<String> rest = types(last + 1, tipFirst);
        Map<StreamCall.Work, BodyLoader.Loaded> next = loader.loadAll(List.of(work(new Span(StreamName.parse("Hot-2"), last + 1, rest))));
        assertThat(bodies(next.values().iterator().next())).hasSize(rest.size());
        assertThat(dynamo.reads).as("items read, by range key: each once, over both loads").allSatisfy((key, n) -> assertThat(n).as(key).hasValue(1));
        assertThat(dynamo.reads.keySet()).as("every calf read by now").filteredOn(k -> !k.endsWith("/2147483647")).hasSize(calves.size());
        assertThat(dynamo.requests.get() - before).as("requests of the second load: the calves not read ahead, if any").isLessThanOrEqualTo(1);
    }

    /**
     * A load that starts right after the calves read before it queries from there at once: a stream's
     * items are contiguous, so the item after a known calf starts where that calf ends. Without
     * knowing it, the load first looked the calf up with a descending query of its own, a read (and a
     * rounding to 4 KB) of that calf alone.
     */
    @Test
    void a_load_right_after_the_calves_read_before_needs_no_look_up(LocalDynamo local) throws Exception {
        FeedFixture f = new FeedFixture(local, 1, TIP_MAX_BYTES);
        StreamName hot = StreamName.parse("Hot-3");
        List<Long> calves = writeHot(local, f, "Hot-3", 120);
        int readAhead = ItemRangeReader.READ_AHEAD_ITEMS;
        assertThat(calves).as("calves").hasSizeGreaterThan(readAhead + 3);
        Counting dynamo = new Counting(local.dynamo());
        BodyLoader loader = new BodyLoader(new StoreClient(dynamo, f.store.config()));
        // the first calf's events: the Tip (read first, nothing being known), then the calf and the ones read ahead
        loader.loadAll(List.of(work(new Span(hot, 0, types(0, calves.get(1) - 1)))));
        long after = calves.get(readAhead + 1); // the first calf not read ahead
        assertThat(dynamo.reads).as("not read yet").doesNotContainKey("Hot-3/" + after);

        long end = calves.get(readAhead + 2); // two calves' events and the first of the third: more than one item
        int before = dynamo.requests.get();
        Map<StreamCall.Work, BodyLoader.Loaded> next = loader.loadAll(List.of(work(new Span(hot, after, types(after, end)))));

        assertThat(bodies(next.values().iterator().next())).hasSize((int) (end - after + 1));
        assertThat(dynamo.requests.get() - before).as("requests: one query from the calf").isEqualTo(1);
        assertThat(dynamo.reads).as("items read, by range key: each once").allSatisfy((key, n) -> assertThat(n).as(key).hasValue(1));
    }

    /**
     * A first load of a stream that wants more events than a Tip holds reads the stream in one query,
     * from its first calf through its Tip: DynamoDB rounds the items up to 4 KB together, as equinox-js's
     * reader pays for them. Read by its Tip first (with other streams' Tips), the Tip and then the
     * calves were each rounded on their own.
     */
    @Test
    void a_first_load_that_wants_more_than_a_tip_holds_reads_the_stream_whole_in_one_query(LocalDynamo local) throws Exception {
        FeedFixture f = new FeedFixture(local, 1, TIP_MAX_BYTES);
        StreamName hot = StreamName.parse("Hot-5");
        List<Long> calves = writeHot(local, f, "Hot-5", 16);
        long tipFirst = tipFirst(local, f, "Hot-5");
        assertThat(calves).as("calves").hasSizeGreaterThan(2);
        long last = 16 * 3 - 1;
        assertThat(last + 1).as("more events than the first guess of what a Tip holds").isGreaterThan(StreamLayouts.CALVED_GUESS);
        Counting dynamo = new Counting(local.dynamo());
        BodyLoader loader = new BodyLoader(new StoreClient(dynamo, f.store.config()));

        Map<StreamCall.Work, BodyLoader.Loaded> loaded = loader.loadAll(List.of(work(new Span(hot, 0, types(0, last)))));

        assertThat(bodies(loaded.values().iterator().next())).hasSize((int) last + 1);
        assertThat(dynamo.requests).as("one request").hasValue(1);
        assertThat(dynamo.queries).as("a query, not a BatchGetItem of the Tip").hasValue(1);
        assertThat(dynamo.reads).as("every item of the stream, once").hasSize(calves.size() + 1)
                .allSatisfy((key, n) -> assertThat(n).as(key).hasValue(1));
        assertThat(tipFirst).isPositive();
    }

    /**
     * Which first loads are read whole is learnt per category from the items read: a load of a stream
     * wanting no more events than its category's Tips were seen to hold goes with the other Tips in one
     * {@code BatchGetItem}; one wanting more, or more than a calf of its category held, is read whole.
     */
    @Test
    void what_a_tip_holds_is_learnt_per_category_from_the_items_read(LocalDynamo local) throws Exception {
        FeedFixture f = new FeedFixture(local, 1, TIP_MAX_BYTES);
        List<StreamCall.Work> small = new ArrayList<>();
        for (int s = 0; s < 3; s++) {
            small.add(work(f.write("Small-" + s, (Instant) null, "A", "B")));
        }
        writeHot(local, f, "Small-hot", 16);
        Counting dynamo = new Counting(local.dynamo());
        BodyLoader loader = new BodyLoader(new StoreClient(dynamo, f.store.config()));
        loader.loadAll(small);
        assertThat(dynamo.queries).as("Tips only: one BatchGetItem").hasValue(0);

        // Small Tips were seen holding two events: a first load of three is read whole
        StreamName hot = StreamName.parse("Small-hot");
        int before = dynamo.requests.get();
        Map<StreamCall.Work, BodyLoader.Loaded> loaded = loader.loadAll(List.of(work(new Span(hot, 0, types(0, 2)))));

        assertThat(bodies(loaded.values().iterator().next())).hasSize(3);
        assertThat(dynamo.requests.get() - before).as("one request: not the Tip first, then its calves").isEqualTo(1);
        assertThat(dynamo.queries).as("read whole, by a query").hasValue(1);
        assertThat(dynamo.reads).as("each item once").allSatisfy((key, n) -> assertThat(n).as(key).hasValue(1));
        assertThat(dynamo.reads.keySet()).as("the Tip too, in the same query").contains("Small-hot/2147483647");
    }

    /** A layout hint that proved wrong (it cannot be, a stream's items being contiguous) costs a look-up, never an event. */
    @Test
    void a_wrong_layout_hint_is_dropped_and_the_item_holding_the_range_found(LocalDynamo local) throws Exception {
        FeedFixture f = new FeedFixture(local, 1, TIP_MAX_BYTES);
        StreamName hot = StreamName.parse("Hot-4");
        List<Long> calves = writeHot(local, f, "Hot-4", 12);
        assertThat(calves).hasSizeGreaterThan(2);
        long wanted = calves.get(1) + 1; // inside the second calf
        StreamLayouts layouts = new StreamLayouts(10, 1 << 20);
        layouts.of(hot).calf(0, wanted); // wrong: says the first calf ends where the range starts
        ItemRangeReader reader = new ItemRangeReader(local.dynamo(), f.storeTable, layouts,
                io.appendsfeed.model.store.CapacityMeter.NONE);

        Map<Long, io.appendsfeed.model.store.StoredEvent> got = reader.read(hot, wanted, wanted + 2, false);

        assertThat(got.keySet()).containsExactlyInAnyOrder(wanted, wanted + 1, wanted + 2);
    }

    /** Appends of three events (A, B, C) to {@code stream}; returns the first indices of its calves, in order. */
    private static List<Long> writeHot(LocalDynamo local, FeedFixture f, String stream, int appends) {
        for (int k = 0; k < appends; k++) {
            f.write(stream, (Instant) null, "A", "B", "C");
        }
        return items(local, f, stream).stream().filter(item -> !StoreItems.isTip(item)).map(StoreItems::rangeKey).toList();
    }

    private static long tipFirst(LocalDynamo local, FeedFixture f, String stream) {
        return items(local, f, stream).stream().filter(StoreItems::isTip).mapToLong(item -> StoreItems.firstIndex(StreamName.parse(stream), item))
                .findFirst().orElse(-1);
    }

    private static List<Map<String, AttributeValue>> items(LocalDynamo local, FeedFixture f, String stream) {
        return local.dynamo().query(q -> q.tableName(f.storeTable).keyConditionExpression("p = :p")
                .expressionAttributeValues(Map.of(":p", AttributeValue.fromS(stream)))).items();
    }

    private static List<String> types(long first, long last) {
        List<String> types = new ArrayList<>();
        for (long i = first; i <= last; i++) {
            types.add(String.valueOf("ABC".charAt((int) (i % 3))));
        }
        return types;
    }

    @Test
    void tips_of_many_streams_are_read_with_one_request(LocalDynamo local) throws Exception {
        FeedFixture f = new FeedFixture(local, 1);
        List<StreamCall.Work> calls = new ArrayList<>();
        for (int s = 0; s < 30; s++) {
            calls.add(work(f.write("Account-" + s, (Instant) null, "Opened", "Deposited")));
        }
        Counting dynamo = new Counting(local.dynamo());

        Map<StreamCall.Work, BodyLoader.Loaded> loaded = new BodyLoader(new StoreClient(dynamo, f.store.config())).loadAll(calls);

        assertThat(dynamo.requests).hasValue(1);
        for (int s = 0; s < 30; s++) {
            assertThat(bodies(loaded.get(calls.get(s)))).containsExactly(
                    "0:Opened:{\"stream\":\"Account-" + s + "\",\"n\":0}", "1:Deposited:{\"stream\":\"Account-" + s + "\",\"n\":1}");
        }
    }

    @Test
    void an_event_the_store_does_not_have_fails_that_call_only_after_a_strongly_consistent_read(LocalDynamo local) throws Exception {
        FeedFixture f = new FeedFixture(local, 1);
        StreamCall.Work fine = work(f.write("Account-1", (Instant) null, "Opened"));
        f.write("Account-2", (Instant) null, "Opened");
        StreamCall.Work ahead = work(new Span(StreamName.parse("Account-2"), 0, List.of("Opened", "Changed")));
        Counting dynamo = new Counting(local.dynamo());

        Map<StreamCall.Work, BodyLoader.Loaded> loaded = new BodyLoader(new StoreClient(dynamo, f.store.config())).loadAll(List.of(fine, ahead));

        assertThat(bodies(loaded.get(fine))).containsExactly("0:Opened:{\"stream\":\"Account-1\",\"n\":0}");
        assertThat(loaded.get(ahead).error()).isInstanceOfSatisfying(MissingEventsException.class, e -> {
            assertThat(e.stream()).isEqualTo(StreamName.parse("Account-2"));
            assertThat(e.expectedIndex()).isEqualTo(1);
        });
        assertThat(dynamo.reads.get("Account-2/2147483647")).as("read eventually, then strongly").hasValue(2);
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }
}

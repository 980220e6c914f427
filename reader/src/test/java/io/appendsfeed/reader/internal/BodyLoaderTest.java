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

/** Body loads against DynamoDB Local: exact events, the Tips of many streams in one request, misses never handed over. */
@ExtendWith(LocalDynamoExtension.class)
class BodyLoaderTest {

    private static final int TIP_MAX_BYTES = 600; // a few events per item: streams calve often

    /** Counts the store items each request returned, by stream and range key. */
    private static final class Counting implements DynamoDbClient {
        final DynamoDbClient dynamo;
        final Map<String, AtomicInteger> reads = new ConcurrentHashMap<>();
        final AtomicInteger requests = new AtomicInteger();

        Counting(DynamoDbClient dynamo) {
            this.dynamo = dynamo;
        }

        @Override
        public QueryResponse query(QueryRequest r) {
            QueryResponse out = dynamo.query(r);
            requests.incrementAndGet();
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
    void spans_of_calved_and_tip_only_streams_come_with_their_bodies(LocalDynamo local) throws Exception {
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
        assertThat(dynamo.reads.keySet()).as("calves were read too").anyMatch(k -> k.startsWith("Hot-1/") && !k.endsWith("/2147483647"));
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
    void a_later_call_of_a_stream_whose_events_the_tip_read_before_holds_reads_nothing(LocalDynamo local) throws Exception {
        FeedFixture f = new FeedFixture(local, 1);
        Span opened = f.write("Account-1", (Instant) null, "Opened");
        Span later = f.write("Account-1", (Instant) null, "Deposited", "Withdrawn");
        Counting dynamo = new Counting(local.dynamo());
        BodyLoader loader = new BodyLoader(new StoreClient(dynamo, f.store.config()));

        StreamCall.Work first = work(opened);
        assertThat(bodies(loader.loadAll(List.of(first)).get(first))).containsExactly("0:Opened:{\"stream\":\"Account-1\",\"n\":0}");
        StreamCall.Work next = work(later);
        Map<StreamCall.Work, BodyLoader.Loaded> loaded = loader.loadAll(List.of(next));

        assertThat(bodies(loaded.get(next))).containsExactly(
                "1:Deposited:{\"stream\":\"Account-1\",\"n\":1}", "2:Withdrawn:{\"stream\":\"Account-1\",\"n\":2}");
        assertThat(dynamo.requests).as("one read of the Tip serves both calls").hasValue(1);

        // a call past what the kept Tip holds reads the Tip again
        Span more = f.write("Account-1", (Instant) null, "Closed");
        StreamCall.Work last = work(more);
        assertThat(bodies(loader.loadAll(List.of(last)).get(last))).containsExactly("3:Closed:{\"stream\":\"Account-1\",\"n\":3}");
        assertThat(dynamo.requests).hasValue(2);
    }

    @Test
    void the_calls_of_a_calved_stream_read_no_item_twice(LocalDynamo local) throws Exception {
        FeedFixture f = new FeedFixture(local, 1, TIP_MAX_BYTES);
        List<Span> spans = new ArrayList<>();
        for (int k = 0; k < 12; k++) {
            spans.add(f.write("Hot-1", (Instant) null, "A", "B", "C"));
        }
        Counting dynamo = new Counting(local.dynamo());
        BodyLoader loader = new BodyLoader(new StoreClient(dynamo, f.store.config()));

        List<String> got = new ArrayList<>();
        for (Span s : spans) {
            StreamCall.Work w = work(s);
            got.addAll(bodies(loader.loadAll(List.of(w)).get(w)));
        }

        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 36; i++) {
            expected.add(i + ":" + "ABC".charAt(i % 3) + ":{\"stream\":\"Hot-1\",\"n\":" + i + "}");
        }
        assertThat(got).containsExactlyElementsOf(expected);
        assertThat(dynamo.reads.keySet()).as("calves were read").anyMatch(k -> !k.endsWith("/2147483647"));
        assertThat(dynamo.reads).as("each item once, whatever call needed it").allSatisfy((item, n) -> assertThat(n).hasValue(1));
        assertThat(dynamo.requests.get()).as("the Tip, then the calves in a read or two").isLessThanOrEqualTo(3);
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

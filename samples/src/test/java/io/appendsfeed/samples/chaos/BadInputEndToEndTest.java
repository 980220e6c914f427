package io.appendsfeed.samples.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.appendsfeed.indexer.BatchOutcome;
import io.appendsfeed.indexer.ChangeRecord;
import io.appendsfeed.indexer.Indexer;
import io.appendsfeed.indexer.IndexerConfig;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.EventData;
import io.appendsfeed.model.store.Expected;
import io.appendsfeed.model.store.ItemTooLargeException;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.model.store.StoreTables;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import io.appendsfeed.reader.FeedReader.CatchUpResult;
import io.appendsfeed.reader.StreamHandler.FeedEvent;
import io.appendsfeed.reader.FeedReader;
import io.appendsfeed.reader.FeedReaderConfig;
import io.appendsfeed.reader.StreamHandler.HandlerResult;
import io.appendsfeed.reader.ParkedStreams.ParkedStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;

/**
 * Bad and extreme input through the whole pipeline (store, the table's Streams records, indexer,
 * reader): it either goes through whole, or is refused with an error saying what is wrong, and
 * nothing around it is lost.
 */
@ExtendWith(LocalDynamoExtension.class)
class BadInputEndToEndTest {

    static {
        QuietLogs.unlessAsked();
    }

    record Pipeline(LocalDynamo local, String storeTable, String indexTable) {
        static Pipeline fresh(LocalDynamo local) {
            Pipeline p = new Pipeline(local, local.freshTableName("bad-store"), local.freshTableName("bad-index"));
            StoreTables.ensure(local.dynamo(), p.storeTable, StreamViewType.NEW_IMAGE);
            StoreTables.ensure(local.dynamo(), p.indexTable, null);
            return p;
        }

        /** Indexes every Streams record of the store so far (waiting for {@code versions} to show) and asserts it all went in. */
        void index(Map<StreamName, Integer> versions) {
            AtomicReference<List<ChangeRecord>> records = new AtomicReference<>();
            await().atMost(Duration.ofSeconds(10)).until(() -> {
                records.set(StoreStreamRecords.all(local.dynamo(), local.streams(), storeTable));
                return StoreStreamRecords.cover(records.get(), versions);
            });
            BatchOutcome o = Indexer.start(local.dynamo(), IndexerConfig.builder(indexTable).build()).ingest(records.get());
            assertThat(o.errors()).isEmpty();
            assertThat(o.complete()).isTrue();
        }

        CatchUpResult read(String group, boolean bodies, Map<StreamName, List<FeedEvent>> into) {
            FeedReaderConfig config = FeedReaderConfig.builder(group, indexTable, storeTable).leases(false).loadBodies(bodies)
                    .pollInterval(Duration.ofMillis(20)).retryBackoff(Duration.ofMillis(5), Duration.ofMillis(20))
                    .parkAfterAttempts(2).build();
            return new FeedReader(local.dynamo(), config, (stream, events) -> {
                into.computeIfAbsent(stream, s -> new ArrayList<>()).addAll(events);
                return HandlerResult.handled();
            }).runUntilCaughtUp(Duration.ofSeconds(20));
        }
    }

    @Test
    void an_append_of_thousands_of_event_types_is_indexed_as_one_span_and_read_back_in_order(LocalDynamo local) {
        Pipeline p = Pipeline.fresh(local);
        StoreClient store = new StoreClient(local.dynamo(), StoreConfig.builder(p.storeTable()).build());
        StreamName before = StreamName.parse("Small-1");
        StreamName huge = StreamName.parse("Huge-1");
        StreamName after = StreamName.parse("Small-2");
        store.append(before, Expected.noStream(), List.of(EventData.json("Opened", "{}")));
        List<EventData> events = new ArrayList<>();
        for (int k = 0; k < 3000; k++) {
            // 40-character types: 3,000 of them are ~130 KB of JSON in one span, over one Ingested's usual 64 KiB
            events.add(EventData.json(String.format("VeryLongEventTypeNameNumber%013d", k), "{}"));
        }
        store.append(huge, Expected.noStream(), events);
        store.append(after, Expected.noStream(), List.of(EventData.json("Opened", "{}")));
        p.index(Map.of(before, 1, huge, 3000, after, 1));

        Map<StreamName, List<FeedEvent>> read = new ConcurrentHashMap<>();
        assertThat(p.read("huge", false, read).caughtUp()).isTrue();
        assertThat(read.get(huge)).extracting(FeedEvent::type).containsExactlyElementsOf(events.stream().map(EventData::type).toList());
        assertThat(read.get(huge)).extracting(FeedEvent::index).isSorted().doesNotHaveDuplicates().hasSize(3000);
        assertThat(read).containsOnlyKeys(before, huge, after);
    }

    @Test
    void the_largest_event_an_item_holds_goes_through_and_one_byte_more_is_refused_before_anything_is_written(LocalDynamo local) {
        Pipeline p = Pipeline.fresh(local);
        StoreClient store = new StoreClient(local.dynamo(), StoreConfig.builder(p.storeTable()).compress(false)
                .tipMaxBytes(StoreConfig.ITEM_MAX_BYTES).build());
        StreamName big = StreamName.parse("Big-1");
        int fits = 0;
        int tooBig = StoreConfig.ITEM_MAX_BYTES;
        while (tooBig - fits > 1) { // at version 1 of a stream not yet there: refused by size, or a conflict; never a write
            int mid = (fits + tooBig) >>> 1;
            try {
                store.append(big, Expected.version(1), List.of(sized(mid)));
                fits = mid;
            } catch (ItemTooLargeException e) {
                tooBig = mid;
            }
        }
        int largest = fits;
        store.append(big, Expected.noStream(), List.of(sized(largest)));
        assertThatThrownBy(() -> store.append(big, Expected.version(1), List.of(sized(largest + 1))))
                .isInstanceOf(ItemTooLargeException.class).hasMessageContaining("nothing was written");
        store.append(big, Expected.version(1), List.of(EventData.json("Small", "{}")));
        p.index(Map.of(big, 2));

        Map<StreamName, List<FeedEvent>> read = new ConcurrentHashMap<>();
        assertThat(p.read("big", true, read).caughtUp()).isTrue();
        assertThat(read.get(big)).extracting(FeedEvent::type).containsExactly("Sized", "Small");
        assertThat(read.get(big).get(0).data()).hasSize(largest);
        System.out.println("largest event body through the whole pipeline: " + largest + " bytes");
    }

    @Test
    void bodies_in_an_unknown_encoding_or_corrupt_park_their_stream_naming_why_and_every_other_stream_is_read(LocalDynamo local) {
        Pipeline p = Pipeline.fresh(local);
        StoreClient store = new StoreClient(local.dynamo(), StoreConfig.builder(p.storeTable()).build());
        StreamName good = StreamName.parse("Account-1");
        store.append(good, Expected.noStream(), List.of(EventData.json("Opened", "{}")));
        StreamName unknown = StreamName.parse("Foreign-7");
        foreignTip(p, unknown, new byte[] {1, 2, 3}, 7);
        StreamName corrupt = StreamName.parse("Foreign-8");
        foreignTip(p, corrupt, "not deflate at all".getBytes(StandardCharsets.UTF_8), 1);
        store.append(good, Expected.version(1), List.of(EventData.json("Changed", "{}")));
        p.index(Map.of(good, 2, unknown, 1, corrupt, 1));

        Map<StreamName, List<FeedEvent>> read = new ConcurrentHashMap<>();
        CatchUpResult r = p.read("bodies", true, read);
        assertThat(r.caughtUp()).as("parked streams count as handled").isTrue();
        assertThat(read.get(good)).extracting(FeedEvent::type).containsExactly("Opened", "Changed");
        assertThat(read).doesNotContainKeys(unknown, corrupt);
        List<ParkedStream> parked = new io.appendsfeed.reader.DynamoParkedStreams(local.dynamo(), p.indexTable(),
                java.time.Clock.systemUTC()).list("bodies");
        assertThat(parked).extracting(ParkedStream::stream).containsExactlyInAnyOrder(unknown, corrupt);
        assertThat(parked).filteredOn(x -> x.stream().equals(unknown)).singleElement()
                .satisfies(x -> assertThat(x.reason()).contains("Foreign-7").contains("encoding 7").contains("e.d"));
        assertThat(parked).filteredOn(x -> x.stream().equals(corrupt)).singleElement()
                .satisfies(x -> assertThat(x.reason()).contains("Foreign-8").contains("encoding 1"));
        // without bodies the feed itself is enough: nothing to decode, nothing parked
        Map<StreamName, List<FeedEvent>> types = new ConcurrentHashMap<>();
        assertThat(p.read("types", false, types).caughtUp()).isTrue();
        assertThat(types).containsOnlyKeys(good, unknown, corrupt);
    }

    /** A Tip as another writer might leave it: one event whose body has encoding {@code encoding}. */
    private static void foreignTip(Pipeline p, StreamName stream, byte[] body, int encoding) {
        p.local().dynamo().putItem(b -> b.tableName(p.storeTable()).item(Map.of(
                "p", AttributeValue.fromS(stream.value()), "i", AttributeValue.fromN("2147483647"),
                "n", AttributeValue.fromN("1"), "a", AttributeValue.fromN("1"), "etag", AttributeValue.fromS("x"),
                "c", AttributeValue.fromL(List.of(AttributeValue.fromS("Imported"))),
                "e", AttributeValue.fromL(List.of(AttributeValue.fromM(Map.of("t", AttributeValue.fromS("2024-05-01T10:00:00.000Z"),
                        "d", AttributeValue.fromB(SdkBytes.fromByteArray(body)), "D", AttributeValue.fromN(Integer.toString(encoding)))))),
                "u", AttributeValue.fromL(List.of()))));
    }

    private static EventData sized(int bytes) {
        byte[] body = new byte[bytes];
        for (int k = 0; k < bytes; k++) {
            body[k] = (byte) ('a' + (k * 7919) % 26);
        }
        return EventData.of("Sized", body);
    }
}

package io.appendsfeed.model.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.testing.LocalDynamo;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;

/** Whatever the event sizes, counts and thresholds, a read returns exactly what was appended, in order. */
class ReadRoundTripProperties {

    private static final AtomicInteger STREAMS = new AtomicInteger();
    private static volatile String table;

    private static String table() {
        if (table == null) {
            synchronized (ReadRoundTripProperties.class) {
                if (table == null) {
                    String t = LocalDynamo.shared().freshTableName("props");
                    StoreTables.ensure(LocalDynamo.shared().dynamo(), t, StreamViewType.NEW_IMAGE);
                    table = t;
                }
            }
        }
        return table;
    }

    @Provide
    Arbitrary<EventData> event() {
        Arbitrary<String> type = Arbitraries.of("Opened", "Deposited", "Withdrawn", "Closed");
        Arbitrary<String> body = Arbitraries.oneOf(
                Arbitraries.strings().alpha().numeric().ofMaxLength(1500),
                Arbitraries.strings().withChars("ab").ofMaxLength(3000));
        Arbitrary<String> meta = Arbitraries.strings().alpha().ofMaxLength(200).injectNull(0.5);
        Arbitrary<String> id = Arbitraries.strings().alpha().ofMinLength(1).ofMaxLength(8).injectNull(0.5);
        return Combinators.combine(type, body, meta, id).as((t, b, m, i) -> new EventData(t,
                ("{\"b\":\"" + b + "\"}").getBytes(StandardCharsets.UTF_8), m == null ? null : m.getBytes(StandardCharsets.UTF_8),
                i, i == null ? null : i + "-cause", null));
    }

    @Provide
    Arbitrary<List<List<EventData>>> appends() {
        return event().list().ofMinSize(1).ofMaxSize(5).list().ofMinSize(1).ofMaxSize(10);
    }

    @Property(tries = 30)
    void reads_return_exactly_what_was_appended(@ForAll("appends") List<List<EventData>> appends,
                                                @ForAll @IntRange(min = 1500, max = 9000) int tipMaxBytes,
                                                @ForAll @IntRange(min = 1, max = 12) int tipMaxEvents,
                                                @ForAll boolean compress,
                                                @ForAll @IntRange(min = 1, max = 4) int pageItems,
                                                @ForAll @IntRange(min = 0, max = 60) int fromSeed) {
        StoreClient client = new StoreClient(LocalDynamo.shared().dynamo(), StoreConfig.builder(table())
                .tipMaxBytes(tipMaxBytes).tipMaxEvents(tipMaxEvents).compress(compress).queryPageItems(pageItems).build());
        StreamName stream = StreamName.of("Prop", Integer.toString(STREAMS.incrementAndGet()));
        List<EventData> all = new ArrayList<>();
        for (List<EventData> batch : appends) {
            assertThat(client.append(stream, Expected.version(all.size()), batch)).isInstanceOf(AppendResult.Written.class);
            all.addAll(batch);
        }
        int from = fromSeed % (all.size() + 1);

        for (boolean strongly : List.of(false, true)) {
            Read forward = strongly ? Read.forward(from).strongly() : Read.forward(from);
            assertSame(client.readAll(stream, forward), all.subList(from, all.size()), from, true);
            assertSame(client.readAll(stream, forward.typesOnly()), all.subList(from, all.size()), from, false);
            Read backward = strongly ? Read.backward().strongly() : Read.backward();
            List<StoredEvent> newestFirst = new ArrayList<>(client.readAll(stream, backward));
            java.util.Collections.reverse(newestFirst);
            assertSame(newestFirst, all, 0, true);
            List<StoredEvent> before = new ArrayList<>(client.readAll(stream, Read.backward(from).typesOnly()));
            java.util.Collections.reverse(before);
            assertSame(before, all.subList(0, from), 0, false);
        }
        Tip tip = client.readTip(stream, true).orElseThrow();
        assertThat(tip.version()).isEqualTo(all.size());
        assertThat(tip.events()).isNotEmpty().hasSizeLessThanOrEqualTo(Math.max(tipMaxEvents, appends.get(appends.size() - 1).size()));
    }

    private static void assertSame(List<StoredEvent> read, List<EventData> expected, int firstIndex, boolean bodies) {
        assertThat(read).hasSize(expected.size());
        for (int k = 0; k < read.size(); k++) {
            StoredEvent r = read.get(k);
            EventData e = expected.get(k);
            assertThat(r.index()).isEqualTo(firstIndex + k);
            assertThat(r.type()).isEqualTo(e.type());
            if (bodies) {
                assertThat(r.data()).isEqualTo(e.data());
                assertThat(r.meta()).isEqualTo(e.meta());
                assertThat(r.correlationId()).isEqualTo(e.correlationId());
                assertThat(r.causationId()).isEqualTo(e.causationId());
                assertThat(r.timestamp()).isNotNull();
            } else {
                assertThat(r.data()).isNull();
            }
        }
    }
}

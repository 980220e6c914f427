package io.appendsfeed.model.store;

import static io.appendsfeed.model.store.StoreFixture.events;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(LocalDynamoExtension.class)
class AppendLimitsTest {

    private static final StreamName STREAM = StreamName.parse("Big-1");

    private static EventData sized(String type, int bytes) {
        return EventData.of(type, "x".repeat(bytes).getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    @Test
    void an_event_of_400_KB_is_refused_with_advice_and_nothing_is_written(LocalDynamo local) {
        StoreFixture f = StoreFixture.fresh(local);
        StoreClient client = f.client(c -> c.compress(false));

        assertThatThrownBy(() -> client.append(STREAM, Expected.noStream(), List.of(sized("Huge", StoreConfig.ITEM_MAX_BYTES))))
                .isInstanceOfSatisfying(ItemTooLargeException.class, e -> {
                    assertThat(e.stream()).isEqualTo(STREAM);
                    assertThat(e.bytes()).isGreaterThan(StoreConfig.ITEM_MAX_BYTES);
                    assertThat(e.limit()).isEqualTo(StoreConfig.ITEM_MAX_BYTES);
                })
                .hasMessageContaining("nothing was written").hasMessageContaining("Split the append");
        assertThat(f.items(STREAM)).isEmpty();
    }

    @Test
    void many_events_that_together_pass_400_KB_are_refused_even_on_an_existing_stream(LocalDynamo local) {
        StoreFixture f = StoreFixture.fresh(local);
        StoreClient client = f.client(c -> c.compress(false));
        client.append(STREAM, Expected.noStream(), events("Small", 1));
        List<EventData> batch = new ArrayList<>();
        for (int k = 0; k < 150; k++) {
            batch.add(sized("Part", 3000));
        }

        assertThatThrownBy(() -> client.append(STREAM, Expected.version(1), batch)).isInstanceOf(ItemTooLargeException.class);
        assertThat(f.items(STREAM)).hasSize(1);
        assertThat(client.readTip(STREAM, true).orElseThrow().version()).isEqualTo(1);
    }

    @Test
    void the_largest_event_we_accept_is_accepted_by_dynamodb_and_one_byte_more_is_refused(LocalDynamo local) {
        StoreFixture f = StoreFixture.fresh(local);
        StoreClient client = f.client(c -> c.compress(false).tipMaxBytes(StoreConfig.ITEM_MAX_BYTES));
        // binary search for our limit: refusals write nothing, so only the final append reaches DynamoDB
        int fits = 0;
        int tooBig = StoreConfig.ITEM_MAX_BYTES;
        while (tooBig - fits > 1) {
            int mid = (fits + tooBig) >>> 1;
            if (refused(client, StreamName.parse("Edge-probe"), mid)) {
                tooBig = mid;
            } else {
                fits = mid;
            }
        }
        int accepted = fits;
        StreamName stream = StreamName.parse("Edge-1");
        assertThat(f.items(StreamName.parse("Edge-probe"))).isEmpty();

        assertThat(client.append(stream, Expected.noStream(), List.of(sized("E", accepted)))).isInstanceOf(AppendResult.Written.class);
        assertThat(client.readAll(stream, Read.forward(0))).singleElement().satisfies(e -> assertThat(e.data()).hasSize(accepted));
        // the Tip's own attributes (keys, n, a, b, etag, t, list overheads) take about 140 bytes
        assertThat(accepted).isGreaterThan(StoreConfig.ITEM_MAX_BYTES - 200);
        assertThatThrownBy(() -> client.append(StreamName.parse("Edge-probe"), Expected.noStream(), List.of(sized("E", accepted + 1))))
                .isInstanceOf(ItemTooLargeException.class);
    }

    private static boolean refused(StoreClient client, StreamName stream, int bytes) {
        try {
            // expected at version 1 of a stream that does not exist: gets as far as a read, never a write
            client.append(stream, Expected.version(1), List.of(sized("E", bytes)));
            return false;
        } catch (ItemTooLargeException e) {
            return true;
        }
    }

    @Test
    void a_tip_that_would_pass_400_KB_calves_even_under_its_threshold(LocalDynamo local) {
        StoreFixture f = StoreFixture.fresh(local);
        StoreClient client = f.client(c -> c.compress(false).tipMaxBytes(StoreConfig.ITEM_MAX_BYTES));
        client.append(STREAM, Expected.noStream(), List.of(sized("A", 250_000)));

        var second = (AppendResult.Written) client.append(STREAM, Expected.version(1), List.of(sized("B", 250_000)));

        assertThat(second.calved()).isTrue();
        assertThat(f.items(STREAM)).hasSize(2);
        assertThat(client.readAll(STREAM, Read.forward(0))).extracting(StoredEvent::type).containsExactly("A", "B");
    }

    @Test
    void unfolds_too_large_for_the_tip_are_refused_with_advice(LocalDynamo local) {
        StoreFixture f = StoreFixture.fresh(local);
        StoreClient client = f.client(c -> c.compress(false));
        Unfold huge = new Unfold("Snap", new byte[StoreConfig.ITEM_MAX_BYTES], null);

        assertThatThrownBy(() -> client.writeUnfolds(STREAM, Expected.noStream(), List.of(huge)))
                .isInstanceOf(ItemTooLargeException.class).hasMessageContaining("Make the unfolds smaller");
        assertThat(f.items(STREAM)).isEmpty();
    }

    @Test
    void reserved_names_are_refused_unless_the_config_allows_them(LocalDynamo local) {
        StoreFixture f = StoreFixture.fresh(local);
        StreamName reserved = StreamName.parse("$AppendsIndex-0");

        assertThatThrownBy(() -> f.client().append(reserved, Expected.noStream(), events("A", 1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("reserved for appendsfeed's own streams").hasMessageContaining("without the '$' prefix");
        assertThatThrownBy(() -> f.client().writeUnfolds(reserved, Expected.noStream(), List.of(Unfold.json("S", "{}"))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("reserved");
        assertThat(f.items(reserved)).isEmpty();

        var allowed = f.client(c -> c.reservedStreams(true)).append(reserved, Expected.noStream(), events("A", 1));
        assertThat(allowed).isInstanceOf(AppendResult.Written.class);
    }

    @Test
    void malformed_events_are_refused_when_built(LocalDynamo local) {
        assertThatThrownBy(() -> EventData.json("", "{}")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("non-empty type");
        assertThatThrownBy(() -> new EventData("T", null, null, null, null, null)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("empty array");
        assertThatThrownBy(() -> Unfold.json(null, "{}")).isInstanceOf(IllegalArgumentException.class);
    }
}

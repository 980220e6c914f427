package io.appendsfeed.model.store;

import static io.appendsfeed.model.store.StoreFixture.events;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(LocalDynamoExtension.class)
class AppendTest {

    private static final StreamName STREAM = StreamName.parse("Account-1");

    @Test
    void versions_count_events_and_each_write_gets_a_fresh_etag(LocalDynamo local) {
        StoreClient client = StoreFixture.fresh(local).client();

        var first = (AppendResult.Written) client.append(STREAM, Expected.noStream(), events("A", 2));
        var second = (AppendResult.Written) client.append(STREAM, Expected.version(2), events("B", 3));

        assertThat(first.version()).isEqualTo(2);
        assertThat(second.version()).isEqualTo(5);
        assertThat(second.etag()).isNotEqualTo(first.etag());
        assertThat(first.calved()).isFalse();
        Tip tip = client.readTip(STREAM, true).orElseThrow();
        assertThat(tip.version()).isEqualTo(5);
        assertThat(tip.etag()).isEqualTo(second.etag());
        assertThat(tip.events()).extracting(StoredEvent::index).containsExactly(0L, 1L, 2L, 3L, 4L);
    }

    @Test
    void wrong_expected_version_is_a_conflict_with_the_actual_version_and_etag(LocalDynamo local) {
        StoreClient client = StoreFixture.fresh(local).client();
        var written = (AppendResult.Written) client.append(STREAM, Expected.noStream(), events("A", 3));

        assertThat(client.append(STREAM, Expected.version(1), events("B", 1)))
                .isEqualTo(new AppendResult.Conflict(3, written.etag()));
        assertThat(client.append(STREAM, Expected.noStream(), events("B", 1)))
                .isEqualTo(new AppendResult.Conflict(3, written.etag()));
        assertThat(client.append(STREAM, Expected.etag("not-it"), events("B", 1)))
                .isEqualTo(new AppendResult.Conflict(3, written.etag()));
        assertThat(client.readTip(STREAM, true).orElseThrow().version()).isEqualTo(3);
    }

    @Test
    void a_missing_stream_conflicts_with_version_0_and_no_etag(LocalDynamo local) {
        StoreClient client = StoreFixture.fresh(local).client();

        assertThat(client.append(STREAM, Expected.version(4), events("A", 1))).isEqualTo(new AppendResult.Conflict(0, null));
        assertThat(client.append(STREAM, Expected.etag("abc"), events("A", 1))).isEqualTo(new AppendResult.Conflict(0, null));
        assertThat(client.readTip(STREAM, true)).isEmpty();
    }

    @Test
    void a_stale_cache_never_lets_a_write_through_another_clients_append(LocalDynamo local) {
        StoreFixture f = StoreFixture.fresh(local);
        StoreClient mine = f.client();
        StoreClient theirs = f.client();
        mine.append(STREAM, Expected.noStream(), events("A", 1));
        var their = (AppendResult.Written) theirs.append(STREAM, Expected.version(1), events("B", 1));

        // mine still remembers version 1
        assertThat(mine.append(STREAM, Expected.version(1), events("C", 1))).isEqualTo(new AppendResult.Conflict(2, their.etag()));
        var after = (AppendResult.Written) mine.append(STREAM, Expected.version(2), events("C", 1));

        assertThat(after.version()).isEqualTo(3);
        assertThat(mine.readAll(STREAM, Read.forward(0).strongly())).extracting(StoredEvent::type)
                .containsExactly("AHappened", "BHappened", "CHappened");
    }

    @Test
    void expected_etag_and_any_append_after_what_is_there(LocalDynamo local) {
        StoreFixture f = StoreFixture.fresh(local);
        StoreClient client = f.client();
        var first = (AppendResult.Written) client.append(STREAM, Expected.any(), events("A", 1));
        var second = (AppendResult.Written) client.append(STREAM, Expected.etag(first.etag()), events("B", 1));
        f.client().append(STREAM, Expected.version(2), events("C", 1)); // another client moves the stream on

        var third = (AppendResult.Written) client.append(STREAM, Expected.any(), events("D", 1));

        assertThat(second.version()).isEqualTo(2);
        assertThat(third.version()).isEqualTo(4);
        assertThat(client.readAll(STREAM, Read.forward(0).strongly())).extracting(StoredEvent::index).containsExactly(0L, 1L, 2L, 3L);
    }

    @Test
    void appending_after_a_tip_that_was_read_conflicts_if_anything_was_written_since(LocalDynamo local) {
        StoreFixture f = StoreFixture.fresh(local);
        StoreClient client = f.client();
        client.append(STREAM, Expected.noStream(), events("A", 1));
        Tip known = client.readTip(STREAM, true).orElseThrow();

        var ok = (AppendResult.Written) client.append(STREAM, Expected.etag(known.etag()), events("B", 1));
        var stale = client.append(STREAM, Expected.etag(known.etag()), events("C", 1));

        assertThat(ok.version()).isEqualTo(2);
        assertThat(stale).isEqualTo(new AppendResult.Conflict(2, ok.etag()));
    }

    @Test
    void unfolds_are_replaced_on_every_write_and_read_back_with_the_tip(LocalDynamo local) {
        StoreClient client = StoreFixture.fresh(local).client();
        client.append(STREAM, Expected.noStream(), events("A", 2), List.of(Unfold.json("Snapshot", "{\"v\":2}")));
        var unfoldOnly = (AppendResult.Written) client.writeUnfolds(STREAM, Expected.version(2),
                List.of(Unfold.json("Snapshot", "{\"v\":3}"), new Unfold("Other", StoreFixture.utf8("{}"), StoreFixture.utf8("{\"m\":1}"))));

        Tip tip = client.readTip(STREAM, false).orElseThrow();

        assertThat(unfoldOnly.version()).isEqualTo(2);
        assertThat(tip.etag()).isEqualTo(unfoldOnly.etag());
        assertThat(tip.unfolds()).extracting(StoredUnfold::index, StoredUnfold::type, u -> StoreFixture.text(u.data()))
                .containsExactly(org.assertj.core.groups.Tuple.tuple(2L, "Snapshot", "{\"v\":3}"),
                        org.assertj.core.groups.Tuple.tuple(2L, "Other", "{}"));
        assertThat(StoreFixture.text(tip.unfolds().get(1).meta())).isEqualTo("{\"m\":1}");
        client.append(STREAM, Expected.version(2), events("B", 1));
        assertThat(client.readTip(STREAM, true).orElseThrow().unfolds()).isEmpty();
    }

    @Test
    void an_unfold_write_by_another_client_does_not_make_a_version_append_conflict(LocalDynamo local) {
        StoreFixture f = StoreFixture.fresh(local);
        StoreClient client = f.client();
        client.append(STREAM, Expected.noStream(), events("A", 1));
        f.client().writeUnfolds(STREAM, Expected.version(1), List.of(Unfold.json("S", "{}")));

        var result = client.append(STREAM, Expected.version(1), events("B", 1));

        assertThat(result).isInstanceOf(AppendResult.Written.class);
        assertThat(((AppendResult.Written) result).version()).isEqualTo(2);
    }

    @Test
    void without_the_cache_an_append_reads_the_tip_first(LocalDynamo local) {
        StoreFixture f = StoreFixture.fresh(local);
        List<String> calls = new CopyOnWriteArrayList<>();
        CapacityMeter meter = (op, table, capacity) -> calls.add(op);
        StoreClient cached = f.client(c -> c.meter(meter));
        cached.append(STREAM, Expected.noStream(), events("A", 1));
        cached.append(STREAM, Expected.version(1), events("B", 1));
        StoreClient uncached = f.client(c -> c.meter(meter)); // a client of its own, which has not seen the stream
        uncached.append(STREAM, Expected.version(2), events("C", 1));

        assertThat(calls).containsExactly("PutItem", "UpdateItem", "GetItem", "UpdateItem");
    }

    @Test
    void empty_event_list_is_refused(LocalDynamo local) {
        StoreClient client = StoreFixture.fresh(local).client();

        assertThatThrownBy(() -> client.append(STREAM, Expected.any(), List.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no events").hasMessageContaining("writeUnfolds");
        assertThat(client.readTip(STREAM, true)).isEmpty();
    }
}

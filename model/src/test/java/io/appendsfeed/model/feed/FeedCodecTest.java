package io.appendsfeed.model.feed;

import io.appendsfeed.model.feed.AppendsEpoch.EpochEvent;
import io.appendsfeed.model.feed.AppendsIndex.IndexEvent;
import io.appendsfeed.model.feed.AppendsIndex.IndexState;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

class FeedCodecTest {

    private static String text(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void ingested_has_exactly_the_design_field_names() {
        var e = new EpochEvent.Ingested(List.of(Span.of("Account-1", 0, "Opened", "Deposited")), List.of(Span.of("Todo-9", 3, "Added")));
        assertThat(text(AppendsEpoch.encode(e))).isEqualTo(
                "{\"add\":[{\"p\":\"Account-1\",\"i\":0,\"c\":[\"Opened\",\"Deposited\"]}],"
                        + "\"app\":[{\"p\":\"Todo-9\",\"i\":3,\"c\":[\"Added\"]}]}");
    }

    @Test
    void closed_and_index_events_have_exactly_the_design_field_names() {
        assertThat(text(AppendsEpoch.encode(new EpochEvent.Closed()))).isEqualTo("{}");
        assertThat(text(AppendsIndex.encode(new IndexEvent.Started(PartitionId.of(2), EpochId.of(7))))).isEqualTo("{\"partition\":2,\"epoch\":7}");
        assertThat(text(AppendsIndex.encode(new IndexEvent.Snapshotted(Map.of(PartitionId.of(1), EpochId.of(3), PartitionId.of(0), EpochId.of(5))))))
                .isEqualTo("{\"active\":{\"0\":5,\"1\":3}}");
    }

    @Test
    void reads_bodies_written_by_other_implementations() {
        // extra fields, whitespace, Closed without a body: all accepted
        var ingested = AppendsEpoch.decode("Ingested", bytes(
                "{ \"add\": [ {\"p\":\"Cart-a\",\"i\":5,\"c\":[\"X\"],\"extra\":1} ], \"future\": true }"));
        assertThat(ingested).isEqualTo(new EpochEvent.Ingested(List.of(Span.of("Cart-a", 5, "X")), List.of()));
        assertThat(AppendsEpoch.decode("Closed", new byte[0])).isEqualTo(new EpochEvent.Closed());
        assertThat(AppendsEpoch.decode("Closed", null)).isEqualTo(new EpochEvent.Closed());
        assertThat(AppendsEpoch.decode("Ingested", new byte[0])).isEqualTo(new EpochEvent.Ingested(List.of(), List.of()));
        assertThat(AppendsEpoch.decode("Ingested", bytes("null"))).isEqualTo(new EpochEvent.Ingested(List.of(), List.of()));
        assertThat(AppendsIndex.decode("Snapshotted", bytes("{\"active\":{\"0\":12}}")))
                .isEqualTo(new IndexEvent.Snapshotted(Map.of(PartitionId.ZERO, EpochId.of(12))));
    }

    @Test
    void unknown_event_types_are_refused_with_advice() {
        assertThatThrownBy(() -> AppendsEpoch.decode("Compacted", bytes("{}")))
                .isInstanceOf(FeedFormatException.class)
                .hasMessageContaining("unknown epoch event type 'Compacted'")
                .hasMessageContaining("upgrade appendsfeed");
        assertThatThrownBy(() -> AppendsIndex.decode("Moved", bytes("{}")))
                .isInstanceOf(FeedFormatException.class).hasMessageContaining("unknown index event type 'Moved'");
    }

    @Test
    void malformed_bodies_say_what_is_wrong() {
        assertThatThrownBy(() -> AppendsEpoch.decode("Ingested", bytes("{\"add\":[{\"p\":\"nodash\",\"i\":0,\"c\":[\"A\"]}]}")))
                .isInstanceOf(FeedFormatException.class).hasMessageContaining("invalid span in 'add'").hasMessageContaining("no '-'");
        assertThatThrownBy(() -> AppendsEpoch.decode("Ingested", bytes("{\"app\":[{\"p\":\"A-1\",\"i\":\"x\",\"c\":[\"A\"]}]}")))
                .hasMessageContaining("integer 'i'");
        assertThatThrownBy(() -> AppendsEpoch.decode("Ingested", bytes("{\"add\":{}}")))
                .hasMessageContaining("'add' is not an array");
        assertThatThrownBy(() -> AppendsEpoch.decode("Ingested", bytes("not json")))
                .hasMessageContaining("not JSON");
        assertThatThrownBy(() -> AppendsIndex.decode("Started", bytes("{\"partition\":0}")))
                .hasMessageContaining("no integer field 'epoch'");
        assertThatThrownBy(() -> AppendsIndex.decode("Started", bytes("{\"partition\":-1,\"epoch\":0}")))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Property(tries = 200)
    void ingested_round_trips(@ForAll("ingested") EpochEvent.Ingested event) {
        assertThat(AppendsEpoch.decode(EpochEvent.INGESTED, AppendsEpoch.encode(event))).isEqualTo(event);
    }

    @Provide
    Arbitrary<EpochEvent.Ingested> ingested() {
        Arbitrary<String> names = Arbitraries.strings().withCharRange('a', 'z').withChars('é', '字', '_', '.').ofMinLength(1).ofMaxLength(12);
        Arbitrary<Span> span = Combinators.combine(names, names, Arbitraries.longs().between(0, Long.MAX_VALUE / 2),
                        names.list().ofMinSize(1).ofMaxSize(5))
                .as((cat, id, i, types) -> new Span(io.appendsfeed.model.StreamName.of(cat, id), i, types));
        return Combinators.combine(span.list().ofMaxSize(6), span.list().ofMaxSize(6)).as(EpochEvent.Ingested::new);
    }
}

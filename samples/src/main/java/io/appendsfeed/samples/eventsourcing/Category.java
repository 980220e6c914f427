package io.appendsfeed.samples.eventsourcing;

import io.appendsfeed.model.Decider;
import io.appendsfeed.model.StreamName;
import java.util.Objects;
import java.util.function.BiFunction;

/**
 * A sample's streams of one category: the fold (initial state and {@code evolve}), the events' codec, and
 * the state kept as JSON in the Tip's unfold, so that a load reads one item however long the stream is.
 *
 * @param name the category, the part of stream names before the first {@code -}
 * @param snapshotType the unfold's type; change it when the state's shape changes, and old snapshots are
 *                     ignored (the state is then folded from the events)
 */
public record Category<S, E>(String name, S initial, BiFunction<S, E, S> evolve, JsonEventCodec<E> codec,
                             Class<S> stateType, String snapshotType) {

    public Category {
        StreamName.of(name, "x"); // validates the category
        Objects.requireNonNull(snapshotType, "snapshotType");
    }

    public StreamName stream(String id) {
        return StreamName.of(name, id);
    }

    /** This category as the model's {@link Decider} loads and writes it. */
    Decider.Category<S, E> decider() {
        return new Decider.Category<>(initial, (s, e) -> evolve.apply(s, codec.decode(e)), codec::encode,
                new Decider.Snapshot<>(snapshotType, Json::bytes, data -> Json.read(data, stateType)));
    }
}

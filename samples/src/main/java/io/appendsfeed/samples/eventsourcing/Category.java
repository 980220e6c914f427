package io.appendsfeed.samples.eventsourcing;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.StoredUnfold;
import io.appendsfeed.model.store.Unfold;
import java.util.Objects;
import java.util.function.BiFunction;

/**
 * Everything needed to load and write streams of one category: the fold (initial state and
 * {@code evolve}), the events' codec, and the snapshot kept as the Tip's unfold, so that a load
 * reads one item however long the stream is.
 *
 * @param name the category, the part of stream names before the first {@code -}
 * @param snapshotType the unfold's type; change it when the state's shape changes, and old
 *                     snapshots are ignored (the state is then folded from the events)
 */
public record Category<S, E>(String name, S initial, BiFunction<S, E, S> evolve, EventCodec<E> codec,
                             Class<S> stateType, String snapshotType) {

    public Category {
        StreamName.of(name, "x"); // validates the category
        Objects.requireNonNull(initial, "initial");
        Objects.requireNonNull(evolve, "evolve");
        Objects.requireNonNull(codec, "codec");
        Objects.requireNonNull(stateType, "stateType");
        Objects.requireNonNull(snapshotType, "snapshotType");
    }

    public StreamName stream(String id) {
        return StreamName.of(name, id);
    }

    public S fold(S state, Iterable<? extends E> events) {
        S s = state;
        for (E e : events) {
            s = evolve.apply(s, e);
        }
        return s;
    }

    public Unfold snapshot(S state) {
        return new Unfold(snapshotType, Json.bytes(state), null);
    }

    /** The state in a snapshot of this category's current {@link #snapshotType}. */
    public S fromSnapshot(StoredUnfold unfold) {
        return Json.read(unfold.data(), stateType);
    }
}

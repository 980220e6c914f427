package io.appendsfeed.samples.eventsourcing;

import io.appendsfeed.model.Decider;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.EventData;
import io.appendsfeed.model.store.StoredEvent;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * JSON bodies for a sealed interface of records: the event type is the record's simple name
 * ({@code Deposited}), the body its fields ({@code {"txId":"t1","amount":500}}).
 */
public final class JsonEventCodec<E> {

    private final Map<String, Class<? extends E>> types = new LinkedHashMap<>();

    private JsonEventCodec(Class<E> sealedType) {
        if (!sealedType.isSealed()) {
            throw new IllegalArgumentException(sealedType.getName() + " must be a sealed interface of records");
        }
        for (Class<?> c : sealedType.getPermittedSubclasses()) {
            if (!c.isRecord()) {
                throw new IllegalArgumentException(c.getName() + " must be a record to be an event of " + sealedType.getSimpleName());
            }
            types.put(c.getSimpleName(), c.asSubclass(sealedType));
        }
    }

    public static <E> JsonEventCodec<E> forSealed(Class<E> sealedType) {
        return new JsonEventCodec<>(sealedType);
    }

    public EventData encode(E event) {
        return EventData.of(event.getClass().getSimpleName(), Json.bytes(event));
    }

    /**
     * Decodes one event, from the store or from the feed.
     *
     * @param data the body; null when it was not loaded
     * @throws UnknownEventException when the type is not one of this category's, or the body is missing or not of
     *         the type's shape (data written by something else: never skipped silently)
     */
    public E decode(StreamName stream, long index, String typeName, byte[] data) {
        Class<? extends E> type = types.get(typeName);
        if (type == null) {
            throw new UnknownEventException(stream, index, typeName, "expected one of " + types.keySet(), null);
        }
        if (data == null) {
            throw new UnknownEventException(stream, index, typeName, "its body was not loaded (read with bodies to decode)", null);
        }
        try {
            return Json.read(data, type);
        } catch (UncheckedIOException e) {
            throw new UnknownEventException(stream, index, typeName, e.getMessage(), e);
        }
    }

    public E decode(StoredEvent event) {
        return decode(event.stream(), event.index(), event.type(), event.data());
    }

    /**
     * Streams of these events as the model's {@link Decider} loads and writes them: the state kept as JSON in the Tip's
     * unfold, so that a load reads one item however long the stream is.
     *
     * @param snapshotType the unfold's type; change it when the state's shape changes, and old snapshots are ignored
     *                     (the state is then folded from the events)
     */
    public <S> Decider.Category<S, E> category(S initial, BiFunction<S, E, S> evolve, Class<S> stateType, String snapshotType) {
        return new Decider.Category<>(initial, (s, e) -> evolve.apply(s, decode(e)), this::encode,
                new Decider.Snapshot<>(snapshotType, Json::bytes, data -> Json.read(data, stateType)));
    }
}

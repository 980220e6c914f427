package io.appendsfeed.samples.eventsourcing;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.EventData;
import io.appendsfeed.model.store.StoredEvent;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;

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
}

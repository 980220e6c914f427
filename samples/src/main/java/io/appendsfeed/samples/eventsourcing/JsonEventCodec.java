package io.appendsfeed.samples.eventsourcing;

import io.appendsfeed.model.store.EventData;
import io.appendsfeed.model.store.StoredEvent;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * JSON bodies for a sealed interface of records: the event type is the record's simple name
 * ({@code Deposited}), the body its fields ({@code {"txId":"t1","amount":500}}).
 */
public final class JsonEventCodec<E> implements EventCodec<E> {

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

    /** The event type names this codec knows. */
    public java.util.Set<String> typeNames() {
        return java.util.Collections.unmodifiableSet(types.keySet());
    }

    @Override
    public EventData encode(E event) {
        return EventData.of(event.getClass().getSimpleName(), Json.bytes(event));
    }

    @Override
    public E decode(StoredEvent event) {
        Class<? extends E> type = types.get(event.type());
        if (type == null) {
            throw new UnknownEventException(event.stream(), event.index(), event.type(),
                    "expected one of " + types.keySet(), null);
        }
        if (event.data() == null) {
            throw new UnknownEventException(event.stream(), event.index(), event.type(),
                    "its body was not loaded (read with bodies to decode)", null);
        }
        try {
            return Json.read(event.data(), type);
        } catch (UncheckedIOException e) {
            throw new UnknownEventException(event.stream(), event.index(), event.type(), e.getMessage(), e);
        }
    }
}

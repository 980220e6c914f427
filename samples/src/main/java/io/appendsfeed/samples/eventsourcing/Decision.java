package io.appendsfeed.samples.eventsourcing;

import java.util.List;
import java.util.Objects;

/**
 * What a pure {@code decide(state, command)} returns: the events to append, or a rejection. An
 * accepted decision with no events means "already done" (idempotent), and nothing is written.
 */
public sealed interface Decision<E> {

    record Accept<E>(List<E> events) implements Decision<E> {
        public Accept {
            events = List.copyOf(events);
        }
    }

    record Reject<E>(String reason) implements Decision<E> {
        public Reject {
            Objects.requireNonNull(reason, "reason");
        }
    }

    @SafeVarargs
    static <E> Decision<E> accept(E... events) {
        return new Accept<>(List.of(events));
    }

    static <E> Decision<E> reject(String reason) {
        return new Reject<>(reason);
    }
}

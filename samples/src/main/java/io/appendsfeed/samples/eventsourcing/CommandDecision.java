package io.appendsfeed.samples.eventsourcing;

import java.util.List;
import java.util.Objects;

/**
 * What a pure {@code decide(state, command)} returns: the events to append, or a rejection. An
 * accepted decision with no events means "already done" (idempotent), and nothing is written.
 */
public sealed interface CommandDecision<E> {

    record Accept<E>(List<E> events) implements CommandDecision<E> {
        public Accept {
            events = List.copyOf(events);
        }
    }

    record Reject<E>(String reason) implements CommandDecision<E> {
        public Reject {
            Objects.requireNonNull(reason, "reason");
        }
    }

    @SafeVarargs
    static <E> CommandDecision<E> accept(E... events) {
        return new Accept<>(List.of(events));
    }

    static <E> CommandDecision<E> reject(String reason) {
        return new Reject<>(reason);
    }
}

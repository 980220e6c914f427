package io.appendsfeed.model.testing.faults;

import java.util.Objects;

/**
 * One fault a {@link FaultInjector} injected: the {@code number}-th call of {@code operation}
 * got {@code fault}. Recorded when the fault is applied, before the call's outcome is known.
 */
public record InjectedFault(String operation, long number, Fault fault) {
    public InjectedFault {
        Objects.requireNonNull(operation, "operation");
        Objects.requireNonNull(fault, "fault");
    }

    @Override
    public String toString() {
        return operation + "#" + number + " " + fault.describe();
    }
}

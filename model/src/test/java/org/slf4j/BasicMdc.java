package org.slf4j;

import org.slf4j.helpers.BasicMDCAdapter;

/**
 * The tests' logging binding, slf4j-simple, keeps no MDC at all (its adapter is a no-op); the
 * bindings people run (logback, log4j2, the Lambda jar's) keep one. Tests that check what is put
 * in the MDC call {@link #install()} first: it swaps in SLF4J's own {@link BasicMDCAdapter}.
 * In package {@code org.slf4j} because {@code MDC.setMDCAdapter} is package-private.
 */
public final class BasicMdc {

    private BasicMdc() {}

    public static synchronized void install() {
        if (!(MDC.getMDCAdapter() instanceof BasicMDCAdapter)) {
            MDC.setMDCAdapter(new BasicMDCAdapter());
        }
    }
}

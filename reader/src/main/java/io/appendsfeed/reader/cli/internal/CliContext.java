package io.appendsfeed.reader.cli.internal;

import java.io.PrintWriter;
import java.time.Clock;
import java.util.Objects;
import java.util.function.Function;

/**
 * What a command runs with, handed in by the entry point so that tests pass their own.
 *
 * @param env environment variables (tests pass a map's {@code get})
 * @param terminal whether stderr is an interactive terminal (progress bars instead of plain lines)
 */
public record CliContext(Function<String, String> env, PrintWriter out, PrintWriter err, Clock clock, boolean terminal) {
    public CliContext {
        Objects.requireNonNull(env, "env");
        Objects.requireNonNull(out, "out");
        Objects.requireNonNull(err, "err");
        Objects.requireNonNull(clock, "clock");
    }
}

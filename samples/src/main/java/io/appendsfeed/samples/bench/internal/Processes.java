package io.appendsfeed.samples.bench.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs a child process (a fresh JVM, node, npm) to completion, its output to a log file. */
public final class Processes {

    /** A child process that failed: the command, how, and the end of its log. */
    public static final class ProcessFailedException extends RuntimeException {
        private final List<String> command;
        private final int exitCode;
        private final Path log;

        ProcessFailedException(List<String> command, int exitCode, Path log, String why) {
            super(why + ": " + String.join(" ", command) + " (log " + log + ")\n" + tail(log));
            this.command = List.copyOf(command);
            this.exitCode = exitCode;
            this.log = log;
        }

        public List<String> command() {
            return command;
        }

        /** -1 when it did not end in time. */
        public int exitCode() {
            return exitCode;
        }

        public Path log() {
            return log;
        }
    }

    private static final int TAIL_LINES = 40;

    private Processes() {
    }

    /**
     * Runs {@code command} in {@code dir} with the environment changed by {@code env} (a null value
     * removes a variable), stdout and stderr to {@code log}.
     *
     * @throws ProcessFailedException when it exits non-zero or does not end within {@code timeout} (it is then killed)
     * @throws UncheckedIOException when it cannot be started
     */
    public static void run(List<String> command, Path dir, Map<String, String> env, Path log, Duration timeout) {
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).redirectInput(ProcessBuilder.Redirect.from(nullDevice()));
        env.forEach((k, v) -> {
            if (v == null) {
                pb.environment().remove(k);
            } else {
                pb.environment().put(k, v);
            }
        });
        Process p;
        try {
            Files.createDirectories(log.getParent());
            p = pb.start();
        } catch (IOException e) {
            throw new UncheckedIOException("could not start " + String.join(" ", command) + ": " + e.getMessage(), e);
        }
        try {
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                throw new ProcessFailedException(command, -1, log, "did not end within " + timeout);
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for " + String.join(" ", command), e);
        }
        if (p.exitValue() != 0) {
            throw new ProcessFailedException(command, p.exitValue(), log, "exit " + p.exitValue());
        }
    }

    /** Whether {@code command} can be started and exits 0 (e.g. {@code node --version}). */
    public static boolean works(List<String> command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static java.io.File nullDevice() {
        return new java.io.File(System.getProperty("os.name").startsWith("Windows") ? "NUL" : "/dev/null");
    }

    static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - TAIL_LINES), lines.size()));
        } catch (IOException e) {
            return "(log unreadable: " + e.getMessage() + ")";
        }
    }
}

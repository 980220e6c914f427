package io.appendsfeed.samples.bench.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs a child process (a fresh JVM, node, npm) to completion, its output to a log file. */
public final class Processes {

    /** A child process that exited non-zero or did not end in time: the command and the end of its log. */
    public static final class ProcessFailedException extends RuntimeException {
        ProcessFailedException(List<String> command, Path log, String why) {
            super(why + ": " + String.join(" ", command) + " (log " + log + ")\n" + tail(log));
        }
    }

    private Processes() {
    }

    /**
     * Runs {@code command} in {@code dir}, the environment changed by {@code env} (a null value removes a
     * variable), stdout and stderr to {@code log}.
     *
     * @throws ProcessFailedException when it exits non-zero or outlives {@code timeout} (it is then killed)
     * @throws UncheckedIOException when it cannot be started
     */
    public static void run(List<String> command, Path dir, Map<String, String> env, Path log, Duration timeout) {
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).redirectInput(ProcessBuilder.Redirect.PIPE);
        env.forEach((k, v) -> {
            if (v == null) {
                pb.environment().remove(k);
            } else {
                pb.environment().put(k, v);
            }
        });
        try {
            Files.createDirectories(log.getParent());
            Process p = pb.start();
            p.getOutputStream().close();
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                throw new ProcessFailedException(command, log, "did not end within " + timeout);
            }
            if (p.exitValue() != 0) {
                throw new ProcessFailedException(command, log, "exit " + p.exitValue());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not start " + String.join(" ", command) + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for " + String.join(" ", command), e);
        }
    }

    /** What {@code command} prints, trimmed, or null when it cannot run or exits non-zero (e.g. {@code node --version}). */
    public static String output(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes()).trim();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0 ? out : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** Every AWS, appendsfeed, JVM, node and peer setting of ours removed, so that none leaks into a child. */
    public static Map<String, String> cleanEnv() {
        Map<String, String> env = new HashMap<>();
        System.getenv().keySet().stream()
                .filter(k -> k.startsWith("AWS_") || k.startsWith("APPENDS_") || k.startsWith("JAVA_") || k.equals("_JAVA_OPTIONS")
                        || k.equals("JDK_JAVA_OPTIONS") || k.startsWith("PEER_") || k.equals("NODE_OPTIONS"))
                .forEach(k -> env.put(k, null));
        return env;
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(log unreadable: " + e.getMessage() + ")";
        }
    }
}

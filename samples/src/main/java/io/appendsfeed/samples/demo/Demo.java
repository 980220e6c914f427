package io.appendsfeed.samples.demo;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The one-command demo ({@code mvn -B -q -pl samples -am package -DskipTests -Pdemo}): exit code 0 when what was
 * written, indexed and handled agree; 1 when they do not; 2 when it could not run.
 */
@Command(name = "demo", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Writes a bank's transactions to DynamoDB Local in this process, indexes them live, consumes the feed with"
                + " three reactors, and checks that what was written, indexed and handled agree (exit code 1 if not).")
public final class Demo {

    public static final int AGREE = 0;
    public static final int DISAGREE = 1;
    public static final int FAILED = 2;

    @Option(names = "--events", defaultValue = "5000", description = "events to write (default: ${DEFAULT-VALUE})")
    long events;

    @Option(names = "--streams", defaultValue = "200", description = "accounts (streams) to write to (default: ${DEFAULT-VALUE})")
    int streams;

    @Option(names = "--writers", defaultValue = "4", description = "concurrent writers (default: ${DEFAULT-VALUE})")
    int writers;

    @Option(names = "--partitions", defaultValue = "2", description = "feed partitions (default: ${DEFAULT-VALUE})")
    int partitions;

    @Option(names = "--duration", converter = DurationConverter.class,
            description = "stop writing after this long even if --events is not reached, e.g. 30s (default: no limit)")
    Duration duration;

    @Option(names = "--timeout", defaultValue = "120s", converter = DurationConverter.class,
            description = "how long to wait for indexing and the reactors to catch up after writing (default: ${DEFAULT-VALUE})")
    Duration timeout;

    @Option(names = "--seed", defaultValue = "42", description = "seed of the random workload (default: ${DEFAULT-VALUE})")
    long seed;

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs the demo with these command-line arguments; returns the exit code. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        Demo options = new Demo();
        CommandLine cli = new CommandLine(options);
        try {
            cli.parseArgs(args);
            if (cli.isUsageHelpRequested()) {
                cli.usage(out);
                return AGREE;
            }
            options.validate();
        } catch (CommandLine.ParameterException | IllegalArgumentException e) {
            err.println("demo: " + e.getMessage());
            cli.usage(err);
            return FAILED;
        }
        try {
            return new DemoRun(options, out).run() ? AGREE : DISAGREE;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("demo: interrupted");
            return FAILED;
        } catch (RuntimeException e) {
            err.println("demo failed: " + e);
            e.printStackTrace(err);
            return FAILED;
        }
    }

    /** @throws IllegalArgumentException naming the option and what it accepts */
    private void validate() {
        require(streams >= 1, "--streams must be at least 1, was " + streams);
        require(writers >= 1 && writers <= 256, "--writers must be in 1..256, was " + writers);
        require(partitions >= 1 && partitions <= 64, "--partitions must be in 1..64, was " + partitions);
        require(events >= streams, "--events (" + events + ") must be at least --streams (" + streams + "): opening each account is an event");
        require(duration == null || duration.toNanos() > 0, "--duration must be positive");
        require(timeout.toNanos() > 0, "--timeout must be positive");
    }

    private static void require(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }

    /** Reads {@code 30s}, {@code 2m}, {@code 500ms}, {@code 1h} or ISO-8601 ({@code PT30S}). */
    static final class DurationConverter implements CommandLine.ITypeConverter<Duration> {

        @Override
        public Duration convert(String value) {
            String v = value.trim().toUpperCase(Locale.ROOT);
            try {
                return v.endsWith("MS") ? Duration.ofMillis(Long.parseLong(v.substring(0, v.length() - 2)))
                        : Duration.parse(v.startsWith("P") ? v : "PT" + v);
            } catch (RuntimeException e) {
                throw new CommandLine.TypeConversionException("'" + value + "' is not a duration: use e.g. 30s, 2m, 500ms or PT30S");
            }
        }
    }
}

package io.appendsfeed.samples.demo;

import java.time.Duration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** The demo's command line. */
@Command(name = "demo", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "Runs appendsfeed end to end on DynamoDB Local, in this process, with no AWS account:",
            "writers append a bank's transactions to a store table, the indexer indexes them live from",
            "the table's DynamoDB Stream into the feed, and two reactors consume the feed (overdraft",
            "notifications, a balance query table). At the end it checks that what was written, indexed",
            "and handled agree, and exits non-zero if not."})
public final class DemoOptions {

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

    @Option(names = "--port", defaultValue = "0",
            description = "port for DynamoDB Local's HTTP endpoint; 0 picks a free one (default: ${DEFAULT-VALUE})")
    int port;

    @Option(names = "--stay", description = "keep DynamoDB Local, the indexer and the reactors running after the summary, until Ctrl-C")
    boolean stay;

    @Option(names = "--seed", defaultValue = "42", description = "seed of the random workload (default: ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--progress", defaultValue = "1s", converter = DurationConverter.class,
            description = "how often to print progress (default: ${DEFAULT-VALUE})")
    Duration progress;

    /**
     * @throws IllegalArgumentException naming the option and what it accepts
     */
    void validate() {
        if (streams < 1) throw new IllegalArgumentException("--streams must be at least 1, was " + streams);
        if (writers < 1 || writers > 256) throw new IllegalArgumentException("--writers must be in 1..256, was " + writers);
        if (partitions < 1 || partitions > 64) throw new IllegalArgumentException("--partitions must be in 1..64, was " + partitions);
        if (events < streams) {
            throw new IllegalArgumentException("--events (" + events + ") must be at least --streams (" + streams
                    + "): opening each account is an event");
        }
        if (port < 0 || port > 65535) throw new IllegalArgumentException("--port must be in 0..65535, was " + port);
        if (duration != null && (duration.isNegative() || duration.isZero())) throw new IllegalArgumentException("--duration must be positive");
        if (timeout.isNegative() || timeout.isZero()) throw new IllegalArgumentException("--timeout must be positive");
        if (progress.isNegative() || progress.isZero()) throw new IllegalArgumentException("--progress must be positive");
    }
}

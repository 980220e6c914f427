package io.appendsfeed.samples.replay;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.EventData;
import io.appendsfeed.model.store.Expected;
import io.appendsfeed.samples.demo.FeedTally;
import io.appendsfeed.samples.local.LocalEnvironment;
import io.appendsfeed.samples.local.LocalFeed;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/** The replay sample: orders written in bursts; the replay returns exactly the middle ones, each order's in order. */
public final class ReplaySample {

    private static final List<StreamName> ORDERS = List.of(StreamName.parse("Order-1"), StreamName.parse("Order-2"));

    private ReplaySample() {}

    public static void main(String[] args) {
        try (LocalEnvironment env = LocalEnvironment.fromArgs(args)) {
            run(env.dynamo(), env.streams(), "replay", System.out);
        }
    }

    /** @return the replayed window: the middle burst */
    public static TimeWindowReplay.Window run(DynamoDbClient dynamo, DynamoDbStreamsClient streams, String prefix, PrintStream out) {
        try (LocalFeed feed = LocalFeed.start(dynamo, streams, prefix + "-events", prefix + "-index", 1)) {
            long[] versions = new long[ORDERS.size()];
            burst(feed, "Placed", versions);
            Instant from = nextMillisecond();
            burst(feed, "Paid", versions);
            burst(feed, "Packed", versions);
            Instant to = nextMillisecond();
            burst(feed, "Shipped", versions);
            out.printf("wrote Placed, then Paid and Packed between %s and %s, then Shipped%n", from, to);
            awaitIndexed(feed, 4L * ORDERS.size()); // the window must be in the feed before it is replayed

            TimeWindowReplay.Window window = new TimeWindowReplay(dynamo, feed.indexTable(), feed.storeTable())
                    .replay(from, to, Set.of("Order"), Duration.ofSeconds(30));
            window.streams().forEach((stream, events) -> events.forEach(e ->
                    out.printf("  %s@%d %-7s written %s%n", stream, e.index(), e.type(), e.timestamp())));
            return window;
        }
    }

    private static void awaitIndexed(LocalFeed feed, long events) {
        FeedTally tally = new FeedTally(feed.index(), 1);
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        for (tally.refresh(); tally.events() < events; tally.refresh()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("only " + tally.events() + " of " + events + " events indexed after 30 s");
            }
            LockSupport.parkNanos(Duration.ofMillis(50).toNanos());
        }
    }

    private static void burst(LocalFeed feed, String type, long[] versions) {
        for (int k = 0; k < ORDERS.size(); k++) {
            feed.store().append(ORDERS.get(k), Expected.version(versions[k]),
                    List.of(EventData.json(type, "{\"order\":\"" + ORDERS.get(k).id() + "\"}")));
            versions[k]++;
        }
    }

    /** The next whole millisecond, once the clock is there: after every event so far (stored timestamps are in ms). */
    private static Instant nextMillisecond() {
        Instant t = Instant.now().truncatedTo(ChronoUnit.MILLIS).plusMillis(1);
        while (Instant.now().isBefore(t)) {
            LockSupport.parkNanos(100_000);
        }
        return t;
    }
}

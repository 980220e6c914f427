package io.appendsfeed.reader.internal;

import io.appendsfeed.model.feed.EpochPage;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.reader.FeedReaderConfig;
import io.appendsfeed.reader.StreamHandler.HandlerResult;
import io.appendsfeed.reader.LeaseStore.Lease;
import io.appendsfeed.reader.StartPosition;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What a runner reads at the tail. A read that took the tail with it ({@link EpochPage#atTail()})
 * is not followed at once by one that can only come back empty, and while what was read is still
 * being handled the runner does not poll the tail: each such read costs the epoch's Tip.
 */
class TailReadTest {

    private static final PartitionId P = PartitionId.of(0);

    /** The feed in memory, with every read it answered: how many records, and whether at the tail. */
    private static final class Recording implements Feed {
        final Feed feed;
        final List<String> reads = new CopyOnWriteArrayList<>();

        Recording(Feed feed) {
            this.feed = feed;
        }

        @Override
        public EpochPage read(PartitionId partition, Checkpoint from, int max) {
            EpochPage page = feed.read(partition, from, max);
            reads.add(page.records().size() + (page.atTail() ? "@tail" : ""));
            return page;
        }

        @Override public int partitions() { return feed.partitions(); }
        @Override public Checkpoint normalize(PartitionId p, Checkpoint from) { return feed.normalize(p, from); }
        @Override public Checkpoint tail(PartitionId p) { return feed.tail(p); }
        @Override public Checkpoint firstIndexedAtOrAfter(PartitionId p, Instant t) { return feed.firstIndexedAtOrAfter(p, t); }
        @Override public long distance(PartitionId p, Checkpoint from, Checkpoint to) { return feed.distance(p, from, to); }
        @Override public Duration age(PartitionId p, Checkpoint at, Instant now) { return feed.age(p, at, now); }
    }

    /** A runner whose handler holds its first call until {@link #release}d, over a feed that records its reads. */
    private static final class HeldRun {
        final Recording feed;
        final ReaderContext ctx;
        final PartitionRunner runner;
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch released = new CountDownLatch(1);

        /** @param endAtTail a catch-up run ({@code runUntilCaughtUp}) */
        HeldRun(CoreFixture f, FeedReaderConfig config, boolean endAtTail) throws Exception {
            feed = new Recording(f.feed);
            ctx = f.context(config, feed, f.store, (stream, events) -> {
                entered.countDown();
                released.await(10, TimeUnit.SECONDS);
                return HandlerResult.handled();
            });
            if (endAtTail) {
                ctx.scheduler().endAtTail();
            }
            Lease lease = f.store.tryAcquire(config.group(), P, config.owner(), config.leaseTimeout()).orElseThrow();
            runner = f.start(ctx, P, new StartPlan(config.start(), true), lease);
            assertThat(entered.await(10, TimeUnit.SECONDS)).as("a handler call started").isTrue();
        }

        void release() {
            released.countDown();
        }
    }

    @Test
    void a_read_that_took_the_tail_is_not_followed_by_polls_while_its_events_are_handled() throws Exception {
        try (CoreFixture f = new CoreFixture(1)) {
            f.feed.ingest(f.feed.write("Account-1", "Opened"), f.feed.write("Account-2", "Opened"));
            f.feed.ingest(f.feed.write("Account-1", "Changed"));
            // a long poll interval: the runner's waits at the tail are bounded by it
            FeedReaderConfig config = f.config("tail").start(StartPosition.beginning()).pollInterval(Duration.ofSeconds(30)).build();
            HeldRun run = new HeldRun(f, config, false);
            Recording feed = run.feed;
            PartitionRunner r = run.runner;

            // one read took the whole feed and its tail; while the handler holds its events nothing is read
            // again (before, an empty read followed at once, then one every 25, 50, 100... ms)
            await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2)).until(() -> feed.reads.equals(List.of("2@tail")));

            run.release();
            await().atMost(Duration.ofSeconds(10)).until(r::drained);
            assertThat(f.handled).containsExactlyInAnyOrder("Account-1@0:Opened", "Account-2@0:Opened", "Account-1@1:Changed");
            // handled: the next read of the tail follows (its waits are those of an empty read)
            await().atMost(Duration.ofSeconds(10)).until(() -> feed.reads.size() >= 2);
            assertThat(feed.reads.get(1)).isEqualTo("0@tail");
            f.close(run.ctx, r);
        }
    }

    /**
     * At the tail, while what was read waits and every handler is busy, the tail is not read each poll
     * interval: what a read found could not start sooner. Once a handler is free it is.
     */
    @Test
    void the_tail_is_not_polled_while_every_handler_is_busy_with_what_was_read() throws Exception {
        try (CoreFixture f = new CoreFixture(1)) {
            f.feed.ingest(f.feed.write("Account-1", "Opened"), f.feed.write("Account-2", "Opened"));
            // one handler, held by Account-1; Account-2's event waits for it. A short poll interval: each one
            // used to end in a read of the tail
            FeedReaderConfig config = f.config("busy").start(StartPosition.beginning()).pollInterval(Duration.ofMillis(50))
                    .maxConcurrentStreams(1).build();
            HeldRun run = new HeldRun(f, config, false);
            Recording feed = run.feed;
            PartitionRunner r = run.runner;

            // twenty poll intervals: no read after the one that took the tail
            await().during(Duration.ofMillis(1000)).atMost(Duration.ofSeconds(3)).until(() -> feed.reads.equals(List.of("1@tail")));

            run.release();
            await().atMost(Duration.ofSeconds(10)).until(() -> f.handled.size() == 2 && r.drained());
            // handlers free: the tail is polled again, each poll interval
            await().atMost(Duration.ofSeconds(10)).until(() -> feed.reads.size() >= 3);
            assertThat(List.copyOf(feed.reads).subList(1, 3)).containsOnly("0@tail"); // a copy: reads go on meanwhile
            f.close(run.ctx, r);
        }
    }

    /**
     * A catch-up run ({@code runUntilCaughtUp}) ends at the tail its read found: the partition is not
     * read again, not while its events are handled and not after, though more were appended meanwhile
     * (they are the next run's). Each poll would pay for the epoch's Tip, in a Lambda reactor once per
     * invocation and partition.
     */
    @Test
    void a_catch_up_reads_to_the_tail_it_found_and_no_further() throws Exception {
        try (CoreFixture f = new CoreFixture(1)) {
            f.feed.ingest(f.feed.write("Account-1", "Opened"));
            FeedReaderConfig config = f.config("once").start(StartPosition.beginning()).pollInterval(Duration.ofMillis(50)).build();
            HeldRun run = new HeldRun(f, config, true);
            Recording feed = run.feed;
            PartitionRunner r = run.runner;

            f.feed.ingest(f.feed.write("Account-2", "Opened")); // appended while the run handles what it read
            run.release();
            await().atMost(Duration.ofSeconds(10)).until(r::drained);

            // twenty poll intervals after the run was drained: still the one read
            await().during(Duration.ofMillis(1000)).atMost(Duration.ofSeconds(3)).until(() -> feed.reads.equals(List.of("1@tail")));
            assertThat(f.handled).containsExactly("Account-1@0:Opened");
            f.close(run.ctx, r);
        }
    }

    @Test
    void a_read_cut_by_its_limit_is_followed_at_once() throws Exception {
        try (CoreFixture f = new CoreFixture(1)) {
            for (int k = 0; k < 5; k++) {
                f.feed.ingest(f.feed.write("Account-" + k, "Opened"));
            }
            Recording feed = new Recording(f.feed);
            FeedReaderConfig config = f.config("cut").start(StartPosition.beginning()).pollInterval(Duration.ofSeconds(30))
                    .maxReadEvents(2).build();
            ReaderContext ctx = f.context(config, feed, f.store);
            Lease lease = f.store.tryAcquire("cut", P, config.owner(), config.leaseTimeout()).orElseThrow();
            PartitionRunner r = f.start(ctx, P, new StartPlan(config.start(), true), lease);

            await().atMost(Duration.ofSeconds(10)).until(() -> f.handled.size() == 5 && r.drained());
            assertThat(feed.reads).startsWith("2", "2", "1@tail");
            f.close(ctx, r);
        }
    }
}

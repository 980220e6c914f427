package io.appendsfeed.reader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.reader.internal.InMemoryFeed;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import io.appendsfeed.reader.CheckpointStore.StoredCheckpoint;
import io.appendsfeed.reader.CheckpointStore.CommitResult;
import io.appendsfeed.reader.LeaseStore.Lease;
import io.appendsfeed.reader.StreamHandler.HandlerResult;
import io.appendsfeed.reader.StreamHandler.FeedEvent;

/**
 * Random interleavings of two readers of one group (start, close, lease renewal, lease expiry with
 * takeover, checkpoint override, new events) over an in-memory feed, checkpoints and leases on a
 * clock the test moves: the core alone, no DynamoDB. Whatever the order: every event is handled at
 * least once, each handler call gets its stream's events in order, a stream is never handled by two
 * readers at once unless an override or an expiry made two of them believe they hold it, and a
 * checkpoint never moves backwards but by an override.
 */
class LeaseInterleavingPropertyTest {

    private static final Duration LEASE_TIMEOUT = Duration.ofSeconds(30);
    private static final String GROUP = "shuffle";

    enum Step { START_A, START_B, CLOSE_A, CLOSE_B, RENEW, EXPIRE, OVERRIDE, INGEST }

    /** Every change of a stored checkpoint, in order, per partition: (value, by override). */
    private static final class RecordingStore extends io.appendsfeed.reader.internal.DelegatingStore {
        record Change(Checkpoint to, boolean override) {}

        final Map<PartitionId, List<Change>> history = new HashMap<>();

        RecordingStore(InMemoryCheckpointStore real) {
            super(real);
        }

        @Override public synchronized CommitResult commit(String g, PartitionId p, Checkpoint to, String by, Lease fence) {
            CommitResult r = real.commit(g, p, to, by, fence);
            if (r instanceof CommitResult.Committed) {
                history.computeIfAbsent(p, k -> new ArrayList<>()).add(new Change(to, false));
            }
            return r;
        }
        @Override public synchronized StoredCheckpoint override(String g, PartitionId p, Checkpoint to, String reason) {
            StoredCheckpoint c = real.override(g, p, to, reason);
            history.computeIfAbsent(p, k -> new ArrayList<>()).add(new Change(to, true));
            return c;
        }
        @Override public synchronized CommitResult overrideHeld(String g, PartitionId p, Checkpoint to, String reason, Lease lease) {
            CommitResult r = real.overrideHeld(g, p, to, reason, lease);
            if (r instanceof CommitResult.Committed) {
                history.computeIfAbsent(p, k -> new ArrayList<>()).add(new Change(to, true));
            }
            return r;
        }
    }

    /** Records calls; counts moments where two readers run one stream. */
    private static final class Handler implements StreamHandler {
        final String name;
        final ConcurrentLinkedQueue<String> outOfOrder;
        final Map<StreamName, AtomicInteger> running;
        final AtomicInteger overlaps;
        final Map<StreamName, TreeSet<Long>> handled;

        Handler(String name, ConcurrentLinkedQueue<String> outOfOrder, Map<StreamName, AtomicInteger> running,
                AtomicInteger overlaps, Map<StreamName, TreeSet<Long>> handled) {
            this.name = name;
            this.outOfOrder = outOfOrder;
            this.running = running;
            this.overlaps = overlaps;
            this.handled = handled;
        }

        @Override
        public HandlerResult handle(StreamName stream, List<FeedEvent> events) {
            AtomicInteger r = running.computeIfAbsent(stream, s -> new AtomicInteger());
            if (r.incrementAndGet() > 1) {
                overlaps.incrementAndGet();
            }
            try {
                for (int k = 1; k < events.size(); k++) {
                    if (events.get(k).index() != events.get(k - 1).index() + 1) {
                        outOfOrder.add(name + " " + events);
                    }
                }
                synchronized (handled) {
                    events.forEach(e -> handled.computeIfAbsent(stream, s -> new TreeSet<>()).add(e.index()));
                }
                return HandlerResult.handled();
            } finally {
                r.decrementAndGet();
            }
        }
    }

    /** Index-only (the in-memory feed holds no bodies), short intervals so that a try stays fast. */
    private static FeedReaderConfig config(String owner, MutableClock clock) {
        return FeedReaderConfig.builder(GROUP, "index", "store").owner(owner).clock(clock).leaseTimeout(LEASE_TIMEOUT)
                .loadBodies(false).pollInterval(Duration.ofMillis(30)).commitInterval(Duration.ofMillis(100))
                .retryBackoff(Duration.ofMillis(10), Duration.ofMillis(100)).parkedPollInterval(Duration.ofMillis(200))
                .shutdownTimeout(Duration.ofSeconds(5)).build();
    }

    @Provide
    Arbitrary<List<Step>> steps() {
        return Arbitraries.of(Step.class).list().ofMinSize(3).ofMaxSize(12);
    }

    @Property(tries = 8)
    void no_interleaving_of_lease_loss_renewal_override_and_close_loses_or_reorders_events(@ForAll("steps") List<Step> steps) {
        MutableClock clock = new MutableClock(Instant.parse("2026-03-01T00:00:00Z"));
        InMemoryFeed f = new InMemoryFeed(2, clock);
        List<String> streams = List.of(f.streamIn("Account", 0, 0), f.streamIn("Account", 0, 1), f.streamIn("Account", 1, 0),
                f.streamIn("Account", 1, 1));
        Map<String, Long> written = new HashMap<>();
        for (String s : streams) {
            f.ingest(f.write(s, "Opened", "Changed"));
            written.put(s, 2L);
        }
        RecordingStore store = new RecordingStore(new InMemoryCheckpointStore(clock));
        InMemoryParkedStreams parked = new InMemoryParkedStreams();
        ConcurrentLinkedQueue<String> outOfOrder = new ConcurrentLinkedQueue<>();
        Map<StreamName, AtomicInteger> running = new ConcurrentHashMap<>();
        AtomicInteger overlaps = new AtomicInteger();
        Map<StreamName, TreeSet<Long>> handled = new HashMap<>();
        Map<String, FeedReader> readers = new HashMap<>();
        List<FeedReader> all = new ArrayList<>();
        boolean twoMayBelieve = false;
        int next = 0;
        try {
            for (Step step : steps) {
                switch (step) {
                    case START_A, START_B -> {
                        String name = step == Step.START_A ? "a" : "b";
                        if (!readers.containsKey(name)) {
                            FeedReader r = new FeedReader(config(name, clock), new Handler(name, outOfOrder, running, overlaps,
                                    handled), store, parked, f);
                            readers.put(name, r);
                            all.add(r);
                            r.start();
                        }
                    }
                    case CLOSE_A, CLOSE_B -> Optional.ofNullable(readers.remove(step == Step.CLOSE_A ? "a" : "b"))
                            .ifPresent(FeedReader::close);
                    case RENEW -> clock.advance(LEASE_TIMEOUT.dividedBy(4));
                    case EXPIRE -> {
                        clock.advance(LEASE_TIMEOUT.plusSeconds(1));
                        twoMayBelieve = true;
                    }
                    case OVERRIDE -> {
                        store.override(GROUP, PartitionId.of(next++ % 2), Checkpoint.START, "test: replay");
                        twoMayBelieve = true;
                    }
                    case INGEST -> {
                        String s = streams.get(next++ % streams.size());
                        f.ingest(f.write(s, "Changed"));
                        written.merge(s, 1L, Long::sum);
                    }
                }
            }
            if (readers.isEmpty()) {
                FeedReader r = new FeedReader(config("c", clock), new Handler("c", outOfOrder, running, overlaps, handled), store,
                        parked, f);
                readers.put("c", r);
                all.add(r);
                r.start();
            }
            await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(20)).until(() -> {
                synchronized (handled) {
                    return streams.stream().allMatch(s -> handled.getOrDefault(StreamName.parse(s), new TreeSet<>()).size()
                            == written.get(s));
                }
            });
        } finally {
            all.forEach(FeedReader::close);
        }
        assertThat(outOfOrder).as("calls whose events were not consecutive").isEmpty();
        if (!twoMayBelieve) {
            assertThat(overlaps).as("moments two readers ran one stream").hasValue(0);
        }
        store.history.forEach((p, changes) -> {
            for (int k = 1; k < changes.size(); k++) {
                if (!changes.get(k).override()) {
                    assertThat(changes.get(k).to()).as("partition %s commit %d of %s", p, k, changes)
                            .isGreaterThanOrEqualTo(changes.get(k - 1).to());
                }
            }
        });
        for (int p = 0; p < 2; p++) {
            assertThat(store.current(GROUP, PartitionId.of(p)).filter(l -> l.expiresAt().isAfter(clock.instant())))
                    .as("leases released on close").isEmpty();
        }
    }
}

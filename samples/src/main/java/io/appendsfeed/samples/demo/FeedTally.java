package io.appendsfeed.samples.demo;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.AppendsEpoch;
import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.AppendsEpoch.EpochEvent;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.feed.Span;
import io.appendsfeed.model.store.Read;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoredEvent;
import io.appendsfeed.samples.demo.Agreement.Tally;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the feed holds, whoever wrote it (the format is the same): walks every epoch of every partition and counts
 * each stream's events, checking each is there once, in order. Each {@link #refresh()} reads only what was added.
 */
public final class FeedTally {

    private final StoreClient index;
    private final StreamCounter counter = new StreamCounter(true);
    private final List<Checkpoint> tails = new ArrayList<>();
    private long spans;

    /** @param index a client on the index table (with {@code reservedStreams(true)}) */
    public FeedTally(StoreClient index, int partitions) {
        this.index = index;
        tails.addAll(Collections.nCopies(partitions, Checkpoint.START));
    }

    /** Reads what was added to each partition since the last call. */
    public synchronized void refresh() {
        for (int p = 0; p < tails.size(); p++) {
            Checkpoint at = tails.get(p);
            while (true) {
                List<StoredEvent> events = index.readAll(AppendsEpoch.stream(PartitionId.of(p), at.epoch()),
                        Read.forward(at.offset()).strongly());
                boolean closed = false;
                for (StoredEvent stored : events) {
                    if (AppendsEpoch.decode(stored) instanceof EpochEvent.Ingested i) {
                        for (List<Span> ss : List.of(i.add(), i.app())) {
                            ss.forEach(s -> counter.record(s.stream(), s.index(), s.count()));
                            spans += ss.size();
                        }
                    } else {
                        closed = true;
                    }
                    at = Checkpoint.of(at.epoch(), stored.index() + 1);
                }
                if (!closed) {
                    break;
                }
                at = at.nextEpoch();
            }
            tails.set(p, at);
        }
    }

    /** Stream events counted so far. */
    public long events() {
        return counter.total();
    }

    public synchronized long spans() {
        return spans;
    }

    /** The end of each partition as last read: the checkpoint a reader that has read everything holds. */
    public synchronized List<Checkpoint> tails() {
        return List.copyOf(tails);
    }

    public Tally tally() {
        return counter.tally("indexed");
    }

    /**
     * Counts events per stream as spans arrive, checking each stream's come in order from 0 with no gap. A repeat is
     * counted once, and is a problem only where repeats must not happen (in the feed itself). Thread-safe.
     */
    public static final class StreamCounter {

        private final boolean repeatsAreProblems;
        private final Map<StreamName, Long> next = new ConcurrentHashMap<>();
        private final ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
        private final AtomicLong total = new AtomicLong();
        private final AtomicLong repeats = new AtomicLong();

        /** @param repeatsAreProblems true for the feed (exactly once), false for a handler (at least once) */
        public StreamCounter(boolean repeatsAreProblems) {
            this.repeatsAreProblems = repeatsAreProblems;
        }

        /** Counts {@code count} events of {@code stream} starting at {@code index}. */
        public void record(StreamName stream, long index, int count) {
            next.compute(stream, (s, cur) -> {
                long expected = cur == null ? 0 : cur;
                long end = index + count;
                if (index > expected) {
                    problems.add(s + ": gap, events " + expected + ".." + (index - 1) + " never came (next came " + index + ")");
                    total.addAndGet(count);
                    return end;
                }
                long repeated = Math.min(end, expected) - index;
                if (repeated > 0) {
                    repeats.addAndGet(repeated);
                    if (repeatsAreProblems) {
                        problems.add(s + ": events " + index + ".." + (index + repeated - 1) + " came twice");
                    }
                }
                total.addAndGet(Math.max(0, end - expected));
                return Math.max(end, expected);
            });
        }

        /** Events counted (each once). */
        public long total() {
            return total.get();
        }

        /** Events that came again after being counted. */
        public long repeats() {
            return repeats.get();
        }

        public Tally tally(String name) {
            return new Tally(name, Map.copyOf(next), new ArrayList<>(problems));
        }
    }
}

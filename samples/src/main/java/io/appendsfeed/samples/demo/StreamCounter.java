package io.appendsfeed.samples.demo;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.samples.demo.Agreement.Tally;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts events per stream as spans arrive, checking that each stream's events come in order from
 * index 0 with no gap. A span that repeats events already counted is a redelivery: counted once,
 * and a problem only where repeats must not happen (in the feed itself). Thread-safe.
 */
public final class StreamCounter {

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

    /** Streams seen so far. */
    public int streams() {
        return next.size();
    }

    public Tally tally(String name) {
        return new Tally(name, Map.copyOf(next), new ArrayList<>(problems));
    }

    /** For tests and the report: problems noticed so far. */
    public List<String> problems() {
        return List.copyOf(problems);
    }
}

package io.appendsfeed.reader.internal;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.AppendsEpoch.EpochEvent;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.feed.Span;
import io.appendsfeed.reader.StreamHandler.FeedEvent;
import io.appendsfeed.reader.FeedReaderConfig;
import io.appendsfeed.reader.StreamHandler.HandlerResult;
import io.appendsfeed.reader.ParkedStreams.ParkedStream;
import io.appendsfeed.reader.ParkedStreams;
import io.appendsfeed.reader.StreamHandler;
import io.appendsfeed.reader.internal.metrics.ReaderMeter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a job of handler calls on a worker thread: loads the bodies of all its calls together, reads
 * a replay chunk, lets {@link EventFilter} pick what the handler gets, calls it, and says how each
 * call ended. Writes parked records when a stream's last allowed try failed.
 */
public final class StreamCall {

    private static final Logger LOG = LoggerFactory.getLogger(Scheduler.class);

    /**
     * One handler call: feed events (bodies loaded by the worker when configured) or, for a released
     * parked stream, a chunk to read from the store table from {@code replayFrom}.
     *
     * @param slot the partition's opening it was taken from: an outcome for a closed one does not count
     * @param events the feed events, ascending; empty for a replay
     * @param position the feed position of the first event, recorded if the stream gets parked
     * @param skipBelow events below this index are already handled
     * @param attemptsBefore failed calls of this stream in a row before this one
     * @param replayFrom the next index to replay from the store table, or -1 for feed events
     */
    record Work(StreamName stream, Progress slot, List<FeedEvent> events, Checkpoint position, long skipBelow,
                int attemptsBefore, long replayFrom) {

        Work {
            Objects.requireNonNull(stream, "stream");
            Objects.requireNonNull(slot, "slot");
            events = List.copyOf(events);
            if (replayFrom < 0 && events.isEmpty()) {
                throw new IllegalArgumentException("a call of " + stream + " needs events or a replay position");
            }
        }

        boolean replay() {
            return replayFrom >= 0;
        }

        long firstIndex() {
            return replay() ? replayFrom : events.get(0).index();
        }

        long lastIndex() {
            return events.get(events.size() - 1).index();
        }
    }

    /** How one call ended; {@link Outcome.Parked} only once the parked record is durable. */
    sealed interface Outcome {
        record Done(long nextIndex) implements Outcome {}

        record ReplayDone() implements Outcome {}

        record Failed(Exception error) implements Outcome {}

        record Parked(ParkedStream parked) implements Outcome {}
    }

    private final FeedReaderConfig config;
    private final StreamHandler handler;
    private final BodyLoader loader;
    private final ParkedStreams parkedStore;
    private final ReaderMeter meter;
    final EventFilter filter;

    /**
     * @param loader null when bodies are not loaded and no replay reads the store (tests of the core)
     * @param meter null when metrics are off
     */
    public StreamCall(FeedReaderConfig config, StreamHandler handler, BodyLoader loader, ParkedStreams parkedStore, ReaderMeter meter) {
        this.config = config;
        this.handler = handler;
        this.loader = loader;
        this.parkedStore = parkedStore;
        this.meter = meter;
        this.filter = new EventFilter(config.categories(), config.eventTypes());
    }

    /**
     * Loads the job's bodies, then makes its calls one by one, telling {@code completed} how each
     * ended; a call not made fails, so that no stream waits on a call that never ends.
     */
    void runJob(List<Work> job, BiConsumer<Work, Outcome> completed) {
        int done = 0;
        Exception notMade = new IllegalStateException("the handler call did not complete");
        try {
            Map<Work, BodyLoader.Loaded> loaded = Map.of();
            if (config.loadBodies()) {
                PartitionId p = job.get(0).slot().partition; // the log context and capacity's, when the job has one partition
                try (LogContext ignored = LogContext.partition(config.group(),
                        job.stream().allMatch(w -> w.slot().partition.equals(p)) ? p : null)) {
                    loaded = loader.loadAll(job.stream().filter(w -> !w.replay()).toList());
                }
            }
            for (Work w : job) {
                try (LogContext ignored = LogContext.stream(config.group(), w.slot().partition, w.stream())) {
                    Outcome o = parkIfLast(w, run(w, loaded.get(w)));
                    done++;
                    completed.accept(w, o);
                }
            }
        } catch (RuntimeException e) {
            LOG.warn("{} calls of a job not made, each fails and is retried: {}", job.size() - done, e.toString());
            notMade = e;
        } finally {
            for (int k = done; k < job.size(); k++) {
                completed.accept(job.get(k), new Outcome.Failed(notMade));
            }
        }
    }

    /** @param loaded the call's bodies, when loaded */
    private Outcome run(Work w, BodyLoader.Loaded loaded) {
        try {
            List<FeedEvent> events;
            if (w.replay()) {
                events = loader.readFrom(w.stream(), w.replayFrom(), config.maxBatchEvents(), config.loadBodies());
                if (events.isEmpty()) {
                    return new Outcome.ReplayDone();
                }
            } else {
                events = loaded != null ? loaded.events() : w.events();
            }
            long end = events.get(events.size() - 1).index() + 1;
            List<FeedEvent> todo = filter.select(events, w.skipBelow(), w.slot().notBefore);
            if (todo.isEmpty()) {
                return new Outcome.Done(end);
            }
            HandlerResult r = handler.handle(w.stream(), List.copyOf(todo));
            if (r == null) {
                throw new IllegalStateException("the handler returned null; return HandlerResult.handled() or reached(n)");
            }
            long reached = r instanceof HandlerResult.Reached reachedTo ? reachedTo.nextIndex() : end;
            if (reached <= todo.get(0).index()) {
                throw new IllegalStateException("the handler returned reached(" + reached + "), not past the first event "
                        + todo.get(0).index() + " it was given: no progress");
            }
            return new Outcome.Done(reached);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Outcome.Failed(e);
        } catch (Exception e) {
            return new Outcome.Failed(e);
        } catch (AssertionError | LinkageError e) {
            // a failing assertion or a missing class in a handler fails its stream, not the reader
            return new Outcome.Failed(new IllegalStateException("the handler threw " + e, e));
        }
    }

    /**
     * A failure that was the stream's last allowed try parks it. Only once the parked record is durable
     * may the checkpoint pass the stream; when it cannot be written the stream stays failing.
     */
    private Outcome parkIfLast(Work w, Outcome o) {
        if (!(o instanceof Outcome.Failed failed) || w.attemptsBefore() + 1 < config.parkAfterAttempts()) {
            return o;
        }
        ParkedStream p = new ParkedStream(config.group(), w.stream(), w.slot().partition, w.firstIndex(), w.position(),
                describe(failed.error()), w.attemptsBefore() + 1, config.clock().instant());
        try {
            parkedStore.park(p);
        } catch (RuntimeException e) {
            LOG.error("{}: could not record as parked ({}); it stays failing and holds the checkpoint", w.stream(), e.toString(), e);
            return o;
        }
        LOG.warn("{}: parked after {} failed attempts at index {} (feed position {}): {}", w.stream(), p.attempts(),
                p.fromIndex(), p.position(), p.reason());
        if (meter != null) {
            meter.parked(p);
        }
        return new Outcome.Parked(p);
    }

    static String describe(Exception e) {
        String m = e.getMessage();
        return e.getClass().getName() + (m == null ? "" : ": " + m);
    }

    /**
     * Which events reach the handler: of the wanted categories (never {@code $} streams) and types,
     * not yet handled, and written at or after a start time. Category and type apply to the feed's
     * spans ({@link #spans}); index and time to a call's loaded events ({@link #select}).
     */
    record EventFilter(Set<String> categories, Set<String> eventTypes) {

        EventFilter {
            categories = Set.copyOf(categories);
            eventTypes = Set.copyOf(eventTypes);
        }

        private boolean wantsType(String type) {
            return eventTypes.isEmpty() || eventTypes.contains(type);
        }

        /** The wanted events of an epoch event per stream, in the order streams first appear: ascending, without repeats. */
        Map<StreamName, List<FeedEvent>> spans(EpochEvent event) {
            Map<StreamName, List<FeedEvent>> byStream = new LinkedHashMap<>();
            if (event instanceof EpochEvent.Ingested ingested) {
                add(ingested.add(), byStream);
                add(ingested.app(), byStream);
            }
            return byStream;
        }

        private void add(List<Span> spans, Map<StreamName, List<FeedEvent>> byStream) {
            for (Span span : spans) {
                if (span.stream().isReserved() || !categories.isEmpty() && !categories.contains(span.stream().category())) {
                    continue;
                }
                List<FeedEvent> events = byStream.computeIfAbsent(span.stream(), x -> new ArrayList<>(span.count()));
                for (int k = 0; k < span.count(); k++) {
                    if (wantsType(span.types().get(k))) {
                        insert(events, FeedEvent.typeOnly(span.stream(), span.index() + k, span.types().get(k)));
                    }
                }
            }
        }

        /** Keeps the list ascending without repeats (overlapping spans); spans of one stream nearly always come in order. */
        private static void insert(List<FeedEvent> events, FeedEvent e) {
            int k = events.size();
            while (k > 0 && events.get(k - 1).index() > e.index()) {
                k--;
            }
            if (k == 0 || events.get(k - 1).index() != e.index()) {
                events.add(k, e);
            }
        }

        /**
         * The events a handler call gets, in order.
         *
         * @param skipBelow events below this index are already handled
         * @param notBefore events written before this are left out; null for no such rule
         */
        List<FeedEvent> select(List<FeedEvent> events, long skipBelow, Instant notBefore) {
            List<FeedEvent> out = new ArrayList<>(events.size());
            for (FeedEvent e : events) {
                boolean early = notBefore != null && e.timestamp() != null && e.timestamp().isBefore(notBefore);
                if (e.index() >= skipBelow && wantsType(e.type()) && !early) {
                    out.add(e);
                }
            }
            return out;
        }
    }
}

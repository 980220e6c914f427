package io.appendsfeed.reader.internal;

import io.appendsfeed.reader.FeedEvent;
import io.appendsfeed.reader.FeedReaderConfig;
import io.appendsfeed.reader.HandlerResult;
import io.appendsfeed.reader.ParkedStream;
import io.appendsfeed.reader.ParkedStreams;
import io.appendsfeed.reader.StreamHandler;
import java.time.Clock;
import java.util.List;
import java.util.Map;

/**
 * Runs {@link Work} on a worker thread: loads the bodies of a job's calls together, reads a replay
 * chunk, lets {@link EventFilter} pick what the handler gets, calls it, and says how it ended.
 * Writes parked records when the scheduler decides a stream must be parked.
 */
public final class StreamCall {

    private final String group;
    private final StreamHandler handler;
    private final BodyLoader loader;
    private final ParkedStreams parkedStore;
    private final EventFilter filter;
    private final boolean loadBodies;
    private final int maxBatchEvents;
    private final Clock clock;

    /** @param loader null when bodies are not loaded and no replay reads the store (tests of the core) */
    StreamCall(String group, StreamHandler handler, BodyLoader loader, ParkedStreams parkedStore, EventFilter filter,
               boolean loadBodies, int maxBatchEvents, Clock clock) {
        this.group = group;
        this.handler = handler;
        this.loader = loader;
        this.parkedStore = parkedStore;
        this.filter = filter;
        this.loadBodies = loadBodies;
        this.maxBatchEvents = maxBatchEvents;
        this.clock = clock;
    }

    public static StreamCall create(FeedReaderConfig c, StreamHandler handler, BodyLoader loader, ParkedStreams parked,
                                    EventFilter filter) {
        return new StreamCall(c.group(), handler, loader, parked, filter, c.loadBodies(), c.maxBatchEvents(), c.clock());
    }

    /** The consumer group, for the log context. */
    public String group() {
        return group;
    }

    public static EventFilter filter(FeedReaderConfig c) {
        return new EventFilter(c.categories(), c.eventTypes());
    }

    /** The bodies of a job's feed calls, loaded together; empty when bodies are off. Never throws. */
    Map<Work, BodyLoader.Loaded> load(List<Work> job) {
        if (!loadBodies) {
            return Map.of();
        }
        return loader.loadAll(job.stream().filter(w -> !w.replay()).toList());
    }

    /** @param loaded the call's bodies, when loaded */
    StreamCallOutcome run(Work w, BodyLoader.Loaded loaded) {
        try {
            List<FeedEvent> events;
            if (w.replay()) {
                events = loader.readFrom(w.stream(), w.replayFrom(), maxBatchEvents, loadBodies);
                if (events.isEmpty()) {
                    return new StreamCallOutcome.ReplayDone();
                }
            } else if (loaded != null) {
                events = loaded.events();
            } else {
                events = w.events();
            }
            long end = events.get(events.size() - 1).index() + 1;
            List<FeedEvent> todo = filter.select(events, w.skipBelow(), w.notBefore());
            if (todo.isEmpty()) {
                return new StreamCallOutcome.Done(end);
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
            return new StreamCallOutcome.Done(reached);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new StreamCallOutcome.Failed(e);
        } catch (Exception e) {
            return new StreamCallOutcome.Failed(e);
        } catch (AssertionError | LinkageError e) {
            // a failing assertion or a missing class in a handler fails its stream, not the reader
            return new StreamCallOutcome.Failed(new IllegalStateException("the handler threw " + e, e));
        }
    }

    ParkedStream parkedRecord(Work w, String reason, int attempts) {
        return new ParkedStream(group, w.stream(), w.slot().partition, w.firstIndex(), w.position(), reason, attempts,
                clock.instant());
    }

    /** @throws RuntimeException when the parked store cannot be written */
    void recordParked(ParkedStream p) {
        parkedStore.park(p);
    }

    static String describe(Exception e) {
        String m = e.getMessage();
        return e.getClass().getName() + (m == null ? "" : ": " + m);
    }
}

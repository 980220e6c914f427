package io.appendsfeed.reader.internal;

import io.appendsfeed.reader.FeedEvent;
import io.appendsfeed.reader.FeedReaderConfig;
import io.appendsfeed.reader.HandlerResult;
import io.appendsfeed.reader.ParkedStream;
import io.appendsfeed.reader.ParkedStreams;
import io.appendsfeed.reader.StreamHandler;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one {@link Batch}: loads bodies (or reads the replay chunk), drops what is already handled
 * or written before the start time, calls the handler, and on the last allowed failure records the
 * stream as parked before anything lets the checkpoint pass it.
 */
public final class StreamCall {

    private static final Logger LOG = LoggerFactory.getLogger(StreamCall.class);

    private final String group;
    private final StreamHandler handler;
    private final BodyLoader loader;
    private final ParkedStreams parkedStore;
    private final boolean loadBodies;
    private final Set<String> eventTypes;
    private final int maxBatchEvents;
    private final int parkAfterAttempts;
    private final Clock clock;

    StreamCall(String group, StreamHandler handler, BodyLoader loader, ParkedStreams parkedStore, boolean loadBodies,
               Set<String> eventTypes, int maxBatchEvents, int parkAfterAttempts, Clock clock) {
        this.group = group;
        this.handler = handler;
        this.loader = loader;
        this.parkedStore = parkedStore;
        this.loadBodies = loadBodies;
        this.eventTypes = eventTypes;
        this.maxBatchEvents = maxBatchEvents;
        this.parkAfterAttempts = parkAfterAttempts;
        this.clock = clock;
    }

    public static StreamCall create(FeedReaderConfig c, StreamHandler handler, BodyLoader loader, ParkedStreams parked) {
        return new StreamCall(c.group(), handler, loader, parked, c.loadBodies(), c.eventTypes(), c.maxBatchEvents(),
                c.parkAfterAttempts(), c.clock());
    }

    public String group() {
        return group;
    }

    /** @param attemptsBefore failures of this stream in a row before this call */
    Outcome run(Batch b, int attemptsBefore) {
        Outcome o = call(b);
        if (o instanceof Outcome.Failed f && attemptsBefore + 1 >= parkAfterAttempts) {
            ParkedStream p = new ParkedStream(group, b.state().stream, b.state().partition, b.firstIndex(), b.position(),
                    describe(f.error()), attemptsBefore + 1, clock.instant());
            try {
                parkedStore.park(p);
                return new Outcome.Parked(p);
            } catch (RuntimeException e) {
                LOG.error("{}: could not record as parked ({}); it stays failing and holds the checkpoint", b.state().stream, e.toString(), e);
                return o;
            }
        }
        return o;
    }

    private Outcome call(Batch b) {
        try {
            List<FeedEvent> events;
            long end;
            if (b.replay()) {
                List<FeedEvent> chunk = loader.readFrom(b.state().stream, b.from(), maxBatchEvents, loadBodies);
                if (chunk.isEmpty()) {
                    return new Outcome.ReplayDone();
                }
                end = chunk.get(chunk.size() - 1).index() + 1;
                events = chunk;
            } else {
                events = loadBodies ? loader.load(b.state().stream, b.events()) : b.events();
                end = b.events().get(b.events().size() - 1).index() + 1;
            }
            List<FeedEvent> todo = new ArrayList<>(events.size());
            for (FeedEvent e : events) {
                boolean wantedType = eventTypes.isEmpty() || eventTypes.contains(e.type());
                boolean early = b.notBefore() != null && e.timestamp() != null && e.timestamp().isBefore(b.notBefore());
                if (wantedType && !early && e.index() >= b.skipBelow()) {
                    todo.add(e);
                }
            }
            if (todo.isEmpty()) {
                return new Outcome.Done(end);
            }
            HandlerResult r = handler.handle(b.state().stream, List.copyOf(todo));
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

    static String describe(Exception e) {
        String m = e.getMessage();
        return e.getClass().getName() + (m == null ? "" : ": " + m);
    }
}

package io.appendsfeed.model.feed;

import java.util.List;
import java.util.Objects;

/**
 * Events of {@code $AppendsEpoch-<partition>_<epoch>}. JSON bodies (see {@link FeedCodec}):
 * {@code Ingested {"add":[span],"app":[span]}} and {@code Closed {}}; a span is
 * {@code {"p":stream,"i":index,"c":[types]}}.
 */
public sealed interface EpochEvent {

    String INGESTED = "Ingested";
    String CLOSED = "Closed";

    /** The event type name stored in {@code c}. */
    String type();

    /**
     * The spans of one DynamoDB Streams batch for one partition.
     *
     * @param add the first span of each stream not yet in this epoch
     * @param app later spans of streams already in this epoch (or earlier in {@code add})
     */
    record Ingested(List<Span> add, List<Span> app) implements EpochEvent {
        public Ingested {
            add = List.copyOf(Objects.requireNonNull(add, "add"));
            app = List.copyOf(Objects.requireNonNull(app, "app"));
        }

        @Override
        public String type() {
            return INGESTED;
        }

        /** Number of stream events the spans cover. */
        public long eventCount() {
            long n = 0;
            for (Span s : add) n += s.count();
            for (Span s : app) n += s.count();
            return n;
        }
    }

    /** The epoch is full; the partition continues in the next epoch. */
    record Closed() implements EpochEvent {
        @Override
        public String type() {
            return CLOSED;
        }
    }
}

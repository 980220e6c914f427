package io.appendsfeed.samples.demo;

import io.appendsfeed.reader.FeedReader;
import io.appendsfeed.reader.FeedReaderConfig;
import io.appendsfeed.reader.HandlerResult;
import io.appendsfeed.reader.StreamHandler;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * A consumer group of the demo: a feed reader driving a handler, counting what the handler got
 * through. A {@code complete} reactor sees every event (its count must equal what was written);
 * others filter by event type.
 */
final class Reactor implements AutoCloseable {

    private final String group;
    private final boolean complete;
    private final StreamCounter handled = new StreamCounter(false);
    private final FeedReader reader;

    Reactor(DynamoDbClient dynamo, FeedReaderConfig config, StreamHandler handler) {
        this.group = config.group();
        this.complete = config.eventTypes().isEmpty() && config.categories().isEmpty();
        this.reader = new FeedReader(dynamo, config, (stream, events) -> {
            HandlerResult result = handler.handle(stream, events);
            handled.record(stream, events.get(0).index(), events.size());
            return result;
        });
    }

    Reactor start() {
        reader.start();
        return this;
    }

    String group() {
        return group;
    }

    boolean complete() {
        return complete;
    }

    /** Events handled, each counted once however often it came. */
    StreamCounter handled() {
        return handled;
    }

    FeedReader reader() {
        return reader;
    }

    /** Stops reading and commits what was handled. */
    @Override
    public void close() {
        reader.close();
    }
}

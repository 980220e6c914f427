package io.appendsfeed.reader;

import io.appendsfeed.model.StreamName;
import java.util.List;

/**
 * Durable record of a group's parked streams. Implementations: {@link DynamoParkedStreams} (the
 * index table), {@link InMemoryParkedStreams}. Thread-safe.
 */
public interface ParkedStreams {

    /**
     * Records a stream as parked. The reader writes this before it lets the checkpoint pass the
     * stream's events, so a parked stream is never lost.
     *
     * @throws RuntimeException when the store cannot be written; the reader then keeps the stream
     *         failing and the checkpoint held before it
     */
    void park(ParkedStream parked);

    /**
     * Releases a parked stream for replay: a reader holding its partition reads its events from
     * {@code fromIndex} on from the store table and hands them over again.
     *
     * @return false when the stream is not parked
     */
    boolean release(String group, StreamName stream, String by);

    /** The group's parked streams, oldest first. */
    List<ParkedStream> list(String group);
}

package io.appendsfeed.reader.internal;

import io.appendsfeed.model.feed.Checkpoint;
import java.time.Instant;

/**
 * @param handled everything before it is handled
 * @param read the position after the last epoch event read
 * @param buffered epoch events read and not fully handled
 * @param oldestUnhandled index time of the oldest of them, or null
 * @param failingStreams streams retrying after a failure
 */
public record PartitionStatus(Checkpoint handled, Checkpoint read, int buffered, Instant oldestUnhandled, int failingStreams) {}

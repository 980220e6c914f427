package io.appendsfeed.reader;

import io.appendsfeed.model.feed.Checkpoint;
import java.time.Instant;

/**
 * An explicit move of a checkpoint, kept as history.
 *
 * @param from the checkpoint before, null when none was stored
 */
public record CheckpointOverride(Instant at, Checkpoint from, Checkpoint to, String reason, String by) {}

package io.appendsfeed.reader.internal;

import io.appendsfeed.reader.CheckpointStore;
import io.appendsfeed.reader.FeedReaderConfig;
import io.appendsfeed.reader.ParkedStreams;

/** What a partition's runner shares with the rest of one reader. */
public record ReaderContext(FeedReaderConfig config, Scheduler scheduler, Feed feed, CheckpointStore checkpoints,
                            ParkedStreams parked) {}

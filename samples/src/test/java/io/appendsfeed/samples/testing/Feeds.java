package io.appendsfeed.samples.testing;

import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.samples.demo.FeedTally;
import io.appendsfeed.samples.local.LocalFeed;

/** Test helpers: a fresh store and index table with live indexing, and waiting for the feed. */
public final class Feeds {

    private Feeds() {}

    /** Fresh tables, indexed live into {@code partitions} partitions; close it to stop indexing. */
    public static LocalFeed fresh(LocalDynamo local, int partitions) {
        return LocalFeed.start(local.dynamo(), local.streams(), local.freshTableName("store"), local.freshTableName("index"), partitions);
    }

    /** Stream events in the feed now. */
    public static long indexed(LocalFeed feed, int partitions) {
        FeedTally tally = new FeedTally(feed.index(), partitions);
        tally.refresh();
        return tally.events();
    }
}

package io.appendsfeed.indexer.backfill;

/**
 * The backfill stopped: a batch could not be ingested after every retry (DynamoDB failing or
 * throttling, or too many conflicts with other indexers). What was ingested before stays; running
 * the backfill again is safe (the indexer drops what the feed already holds) and carries on.
 */
public class BackfillFailedException extends RuntimeException {

    private final String position;

    public BackfillFailedException(String position, int attempts, Throwable cause) {
        super("backfill stopped: the span " + position + " was not ingested after " + attempts + " attempts ("
                + cause + "); fix the cause and run the backfill again: it skips what the feed already holds", cause);
        this.position = position;
    }

    /** The first span not ingested, as {@code stream@index}. */
    public String position() {
        return position;
    }
}

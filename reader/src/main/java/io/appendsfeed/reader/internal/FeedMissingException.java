package io.appendsfeed.reader.internal;

/**
 * The feed's index does not exist (or is not visible to these credentials): no retry helps, the
 * indexer has to create it first.
 *
 * @param where the index's location (the index table's name)
 */
public final class FeedMissingException extends RuntimeException {

    private final String where;

    public FeedMissingException(String where, Throwable cause) {
        super("index table '" + where + "' does not exist (or is not visible to these credentials); create it with the indexer"
                + " first", cause);
        this.where = where;
    }

    public String where() {
        return where;
    }
}

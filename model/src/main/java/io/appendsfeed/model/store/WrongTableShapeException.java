package io.appendsfeed.model.store;

/** A table that is not of the store format (keys, types, Streams), or does not exist where the client looked. */
public class WrongTableShapeException extends RuntimeException {

    private final String table;

    public WrongTableShapeException(String table, String problem) {
        this(table, "table '" + table + "' is not an appendsfeed store table: " + problem, (Throwable) null);
    }

    private WrongTableShapeException(String table, String message, Throwable cause) {
        super(message, cause);
        this.table = table;
    }

    /** The table does not exist (at that endpoint, in that region): unlike DynamoDB's own error, names it and how to create it. */
    public static WrongTableShapeException missing(String table, Throwable cause) {
        return new WrongTableShapeException(table, "table '" + table + "' does not exist here (check the region and endpoint):"
                + " create it with StoreTables.ensure(dynamo, \"" + table + "\", StreamViewType.NEW_IMAGE) for a store table or"
                + " StoreTables.ensure(dynamo, \"" + table + "\", null) for an index table, or deploy indexer/deploy/template.yaml",
                cause);
    }

    public String table() {
        return table;
    }
}

package io.appendsfeed.model.store;

/** A table that does not exist (at that endpoint, in that region): unlike DynamoDB's own error, names it. */
public class MissingTableException extends RuntimeException {

    private final String table;

    public MissingTableException(String table, Throwable cause) {
        super("table '" + table + "' does not exist here (check the region and endpoint): create it with"
                + " StoreTables.ensure(dynamo, \"" + table + "\", StreamViewType.NEW_IMAGE) for a store table or"
                + " StoreTables.ensure(dynamo, \"" + table + "\", null) for an index table, or deploy indexer/deploy/template.yaml",
                cause);
        this.table = table;
    }

    public String table() {
        return table;
    }
}

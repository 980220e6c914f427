package io.appendsfeed.model.store;

/** A table that is not of the store format (keys, types, Streams), or does not exist. */
public class WrongTableShapeException extends RuntimeException {

    private final String table;

    public WrongTableShapeException(String table, String problem) {
        super("table '" + table + "' is not an appendsfeed store table: " + problem);
        this.table = table;
    }

    public String table() {
        return table;
    }
}

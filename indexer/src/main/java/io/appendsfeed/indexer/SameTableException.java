package io.appendsfeed.indexer;

/**
 * The store table was given as the index table: anyone allowed to append to the store could then append
 * an {@code Ingested} to an epoch stream and so forge the feed.
 */
public class SameTableException extends IllegalArgumentException {

    private final String storeTable;

    public SameTableException(String storeTable, String indexTable) {
        super("the store table '" + storeTable + "' and the index table '" + indexTable + "' are the same table: a writer"
                + " of the store could then append entries to the feed's epochs and forge it. Give the index a table of"
                + " its own, which only the indexer writes (e.g. '" + tableName(storeTable) + "-index')");
        this.storeTable = storeTable;
    }

    /**
     * Refuses a store table that is the index table, by name or ARN: two ARNs are compared whole (tables of
     * other accounts or regions may share a name), otherwise the table names.
     */
    public static void check(String storeTable, String indexTable) {
        if (storeTable == null || indexTable == null) {
            return;
        }
        boolean same = isArn(storeTable) && isArn(indexTable)
                ? tableArn(storeTable).equals(tableArn(indexTable))
                : tableName(storeTable).equals(tableName(indexTable));
        if (same) {
            throw new SameTableException(storeTable, indexTable);
        }
    }

    public String storeTable() { return storeTable; }

    /** The table name in a table or stream ARN ({@code arn:...:table/<name>[/stream/...]}), or the name given. */
    public static String tableName(String nameOrArn) {
        String s = nameOrArn.trim();
        return isArn(s) ? s.substring(s.indexOf(":table/") + ":table/".length()).split("/")[0] : s;
    }

    private static String tableArn(String arn) {
        String s = arn.trim();
        return s.substring(0, s.indexOf(":table/")) + ":table/" + tableName(s);
    }

    private static boolean isArn(String s) {
        return s.trim().startsWith("arn:") && s.contains(":table/");
    }
}

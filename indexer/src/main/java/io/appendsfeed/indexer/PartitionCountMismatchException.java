package io.appendsfeed.indexer;

/**
 * The indexer is configured with another partition count than the one recorded in
 * {@code $AppendsIndex-0} when the index was created. The count can never change (streams would
 * move partition), so the indexer refuses to start.
 */
public class PartitionCountMismatchException extends RuntimeException {

    private final String indexTable;
    private final int recorded;
    private final int configured;

    public PartitionCountMismatchException(String indexTable, int recorded, int configured) {
        super("index table '" + indexTable + "' was created with " + recorded + " partition(s) but this indexer is configured"
                + " with " + configured + "; the count never changes once recorded: configure " + recorded
                + " or leave the partitions unset (the index's count is then taken), or use a new index table for a different count");
        this.indexTable = indexTable;
        this.recorded = recorded;
        this.configured = configured;
    }

    public String indexTable() { return indexTable; }
    public int recorded() { return recorded; }
    public int configured() { return configured; }
}

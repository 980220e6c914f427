package io.appendsfeed.indexer.poller;

/**
 * The poller stopped reading a shard on a failure that retrying cannot fix (a rejected record under
 * {@link PollerConfig.OnRejected#STOP_SHARD}, or a gap). Its position stays just before the record; fix
 * the cause and restart the poller.
 */
public class ShardStoppedException extends RuntimeException {

    private final String shardId;
    private final String sequenceNumber;

    public ShardStoppedException(String shardId, String sequenceNumber, String reason, Throwable cause) {
        super("shard " + shardId + " stopped at record " + sequenceNumber + ": " + reason, cause);
        this.shardId = shardId;
        this.sequenceNumber = sequenceNumber;
    }

    public String shardId() { return shardId; }
    public String sequenceNumber() { return sequenceNumber; }
}

package io.appendsfeed.indexer.lambda;

import io.appendsfeed.indexer.BatchOutcome;
import io.appendsfeed.indexer.Indexer;
import io.appendsfeed.indexer.SameTableException;
import io.appendsfeed.model.DynamoClients;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What both Lambda handlers do with a batch once its records are read ({@link IndexerStreamHandler}
 * reads the event's JSON itself, {@link IndexerHandler} takes the runtime's {@code DynamodbEvent}):
 * the check of the records' source, the ingest, and which record to report as the batch item failure.
 * One home for these rules, whatever read the event.
 */
final class LambdaIngest {

    private static final Logger log = LoggerFactory.getLogger(LambdaIngest.class);

    private final Indexer indexer;
    private final String storeTable;
    /** The event source mapping's batch size, 0 when unknown: a batch this large means more records are waiting. */
    private final int batchSize;

    LambdaIngest(Indexer indexer, String storeTable, int batchSize) {
        this.indexer = Objects.requireNonNull(indexer, "indexer");
        this.storeTable = storeTable;
        if (batchSize < 0) {
            throw new IllegalArgumentException("batchSize must be >= 0 (0: unknown), was " + batchSize);
        }
        this.batchSize = batchSize;
        SameTableException.check(storeTable, indexer.config().indexTable());
    }

    /** As Lambda builds a handler: the index opened now, metrics as the settings say (EMF lines on stdout), the store table required. */
    static LambdaIngest of(LambdaSettings settings) {
        return new LambdaIngest(Indexer.start(DynamoClients.dynamoDb(settings.dynamo()),
                settings.config().toBuilder().metrics(settings.metrics().metrics()).build()), requireStoreTable(settings), settings.batchSize());
    }

    /**
     * Refuses a record whose stream ARN names the index table, or a table other than the store table.
     * An invocation's records come from one event source mapping, so one stream: the handlers check the
     * first record that names its ARN and the last one (in case another source builds events by hand),
     * not every record (a cache miss per record in a large batch).
     *
     * @param eventId the record's {@code eventID}, for the message
     * @param arn its {@code eventSourceARN}; null is not checked
     * @throws SameTableException when it is the index table's stream
     * @throws IllegalStateException when it is another table's than the store table's
     */
    void checkSource(String eventId, String arn) {
        if (arn == null) {
            return;
        }
        SameTableException.check(arn, indexer.config().indexTable());
        if (storeTable != null && !SameTableException.tableName(arn).equals(SameTableException.tableName(storeTable))) {
            throw new IllegalStateException("record " + eventId + " comes from the stream " + arn + ", not from the store"
                    + " table '" + storeTable + "' (" + LambdaSettings.STORE_TABLE + "): map the function to that table's"
                    + " stream, or set " + LambdaSettings.STORE_TABLE + " to the table it is mapped to; nothing was written");
        }
    }

    /**
     * Ingests the records (their source checked before) and says what to report.
     *
     * @param delivered how many records the invocation brought (a batch of the mapping's full size means more are waiting)
     * @return the batch item failure's identifier: the first record not in the feed, or "" for a record
     *         delivered without a sequence number (Lambda then retries the batch, bisecting); null when every
     *         record is in the feed
     */
    String ingest(LambdaRecords.Converted converted, int delivered) {
        BatchOutcome outcome = indexer.ingest(converted.records(), null);
        if (!outcome.complete()) {
            return outcome.firstNotIngested();
        }
        if (converted.unidentified() != null) {
            log.error("{}: the records before it are in the feed; it is reported as the batch item failure (an empty identifier:"
                    + " Lambda retries the batch, bisecting, then sends its range to the on-failure destination)", converted.unidentified());
            return "";
        }
        return null;
    }

    private static String requireStoreTable(LambdaSettings settings) {
        if (settings.storeTable() == null) {
            throw new IllegalArgumentException(LambdaSettings.STORE_TABLE + " is not set: set it to the store table whose stream"
                    + " the function is mapped to (the template sets it from StoreStreamArn)");
        }
        return settings.storeTable();
    }
}

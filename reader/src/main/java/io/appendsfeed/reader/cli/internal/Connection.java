package io.appendsfeed.reader.cli.internal;

import io.appendsfeed.model.DynamoClients;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.reader.DynamoCheckpointStore;
import io.appendsfeed.reader.DynamoParkedStreams;
import io.appendsfeed.reader.internal.FeedPositions;
import java.time.Clock;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/**
 * The DynamoDB client and the feed's tables for one command run, checked to exist before the
 * command reads them, so that a wrong name fails with what to pass instead.
 */
public final class Connection implements AutoCloseable {

    private final Settings settings;
    private final DynamoDbClient dynamo;
    private final Clock clock;
    private final String indexTable;
    private final StoreClient index;

    private Connection(Settings settings, DynamoDbClient dynamo, Clock clock) {
        this.settings = settings;
        this.dynamo = dynamo;
        this.clock = clock;
        this.indexTable = settings.requireIndexTable();
        this.index = new StoreClient(dynamo, StoreConfig.builder(indexTable).reservedStreams(true).clock(clock).build());
    }

    /**
     * Connects and checks the index table (and the store table when {@code needStore}).
     *
     * @throws UsageException when a table is not named or does not exist
     * @throws SdkException when DynamoDB cannot be reached
     */
    public static Connection open(Settings settings, Clock clock, boolean needStore) {
        String indexTable = settings.requireIndexTable();
        String storeTable = needStore ? settings.requireStoreTable() : null;
        DynamoDbClient dynamo = DynamoClients.dynamoDb(DynamoClients.Settings.of(settings.endpoint(), settings.region()));
        try {
            Connection c = new Connection(settings, dynamo, clock);
            c.describe(indexTable, "--index-table", Settings.INDEX_TABLE_VAR);
            if (storeTable != null) {
                c.describe(storeTable, "--store-table", Settings.STORE_TABLE_VAR);
            }
            return c;
        } catch (RuntimeException e) {
            dynamo.close();
            throw e;
        }
    }

    /** @throws UsageException naming the option and variable when the table does not exist */
    public TableDescription describe(String table, String option, String variable) {
        try {
            return dynamo.describeTable(b -> b.tableName(table)).table();
        } catch (ResourceNotFoundException e) {
            throw new UsageException((option.equals("--index-table") ? "index" : "store") + " table '" + table
                    + "' does not exist at " + settings.where() + ": pass " + option + " or set " + variable, e);
        }
    }

    public Settings settings() {
        return settings;
    }

    public DynamoDbClient dynamo() {
        return dynamo;
    }

    public String indexTable() {
        return indexTable;
    }

    public String storeTable() {
        return settings.requireStoreTable();
    }

    /** A client of the index table, allowed to write the feed's own {@code $} streams. */
    public StoreClient index() {
        return index;
    }

    public DynamoCheckpointStore checkpoints() {
        return new DynamoCheckpointStore(index, clock);
    }

    public DynamoParkedStreams parked() {
        return new DynamoParkedStreams(index, clock);
    }

    public FeedPositions positions() {
        return new FeedPositions(index);
    }

    @Override
    public void close() {
        dynamo.close();
    }
}

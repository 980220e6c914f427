package io.appendsfeed.indexer.cli;

import io.appendsfeed.indexer.cli.TableRole;
import io.appendsfeed.model.DynamoClients;
import io.appendsfeed.model.feed.FeedStreams;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.reader.DynamoCheckpointStore;
import io.appendsfeed.reader.DynamoParkedStreams;
import io.appendsfeed.model.feed.FeedPositions;
import java.time.Clock;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/**
 * The DynamoDB client and the feed's tables for one command run. Before a command reads or writes
 * anything, each table it names is checked to exist and to be of its role (an index table is not
 * a store table and the other way round), so that a wrong or swapped name fails with what to pass
 * instead rather than with a misleading answer.
 */
public final class Connection implements AutoCloseable {

    /** What a command needs of the index table. */
    public enum IndexUse {
        /** reads it: an index table, or one not indexed into yet (reported as such) */
        READ,
        /** changes what readers see (checkpoints, parked streams): it must hold a feed */
        WRITE,
        /** indexes into it: an index table or an empty one, never a store */
        INDEX
    }

    private final CliSettings settings;
    private final DynamoDbClient dynamo;
    private final Clock clock;
    private final String where;
    private final String indexTable;
    private final StoreClient index;
    private TableRole indexRole;
    private TableRole storeRole;

    private Connection(CliSettings settings, DynamoDbClient dynamo, Clock clock, String where) {
        this.settings = settings;
        this.dynamo = dynamo;
        this.clock = clock;
        this.where = where;
        this.indexTable = settings.requireIndexTable();
        this.index = new StoreClient(dynamo, StoreConfig.builder(indexTable).reservedStreams(true).clock(clock).build());
    }

    /**
     * Connects and checks the index table (and the store table when {@code needStore}).
     *
     * @throws UsageException when a table is not named, does not exist or is not of its role, or
     *         the profile is unknown
     * @throws CannotConnectException when there is no region or no credentials, DynamoDB does not answer
     *         (after {@link CliSettings#MAX_ATTEMPTS} attempts) or it refuses the credentials
     * @throws SdkException when DynamoDB fails otherwise
     */
    public static Connection open(CliContext ctx, CliSettings settings, IndexUse use, boolean needStore) {
        String indexTable = settings.requireIndexTable();
        String storeTable = needStore ? settings.requireStoreTable() : null;
        if (indexTable.equals(storeTable)) {
            throw new UsageException("--store-table and --index-table are both '" + indexTable + "': the feed is kept in a"
                    + " table of its own, the index table, never in the event store");
        }
        DynamoClients.Settings client = settings.dynamo();
        ctx.where().set(settings.where(client.region().orElse(null)));
        client.credentials().ifPresent(c -> {
            try {
                c.resolveCredentials(); // now, once: the client would find them missing at its first call, inside a long message
            } catch (SdkClientException e) {
                throw new CannotConnectException(CannotConnectException.Missing.CREDENTIALS, settings.profile() != null
                        ? "no AWS credentials for --profile '" + settings.profile() + "': add them to it, log in (aws sso login"
                                + " --profile " + settings.profile() + "), or pass another --profile"
                        : CliSettings.NO_CREDENTIALS, e);
            }
        });
        DynamoDbClient dynamo;
        try {
            dynamo = ctx.clients().apply(client);
        } catch (SdkClientException e) {
            throw new CannotConnectException(CannotConnectException.Missing.REGION, CliSettings.NO_REGION, e);
        }
        Region region = dynamo.serviceClientConfiguration().region();
        String where = settings.where(region);
        ctx.where().set(where);
        try {
            Connection c = new Connection(settings, dynamo, ctx.clock(), where);
            c.checkRoles(indexTable, storeTable, use);
            return c;
        } catch (RuntimeException e) {
            dynamo.close();
            throw e;
        }
    }

    private void checkRoles(String indexTable, String storeTable, IndexUse use) {
        indexRole = TableRole.of(dynamo, describe(indexTable, "--index-table", CliSettings.INDEX_TABLE_VAR), "--index-table");
        if (storeTable != null) {
            storeRole = TableRole.of(dynamo, describe(storeTable, "--store-table", CliSettings.STORE_TABLE_VAR), "--store-table");
        }
        if (indexRole.kind() == TableRole.Kind.STORE && storeRole != null && storeRole.kind() == TableRole.Kind.INDEX) {
            throw new UsageException("the tables are swapped: --index-table '" + indexTable + "' is " + indexRole.describe()
                    + " and --store-table '" + storeTable + "' is " + storeRole.describe() + "; exchange the two names");
        }
        if (indexRole.kind() == TableRole.Kind.STORE) {
            throw new UsageException("--index-table '" + indexTable + "' is " + indexRole.describe()
                    + ": pass the feed's index table (the one the indexer writes), or set " + CliSettings.INDEX_TABLE_VAR);
        }
        if (indexRole.kind() == TableRole.Kind.EMPTY && use == IndexUse.WRITE) {
            throw new UsageException("--index-table '" + indexTable + "' holds no feed yet (no " + FeedStreams.INDEX
                    + "): nothing was indexed into it. Start the indexer first, or check the name");
        }
        if (storeRole != null && storeRole.kind() == TableRole.Kind.INDEX) {
            throw new UsageException("--store-table '" + storeTable + "' is " + storeRole.describe()
                    + ": pass the event store table (the one your application writes), or set " + CliSettings.STORE_TABLE_VAR);
        }
    }

    /** @throws UsageException naming the option and variable when the table does not exist */
    public TableDescription describe(String table, String option, String variable) {
        try {
            return dynamo.describeTable(b -> b.tableName(table)).table();
        } catch (ResourceNotFoundException e) {
            throw new UsageException((option.equals("--index-table") ? "index" : "store") + " table '" + table
                    + "' does not exist at " + where + ": pass " + option + " or set " + variable, e);
        }
    }

    public CliSettings settings() {
        return settings;
    }

    public DynamoDbClient dynamo() {
        return dynamo;
    }

    /** Where the tables are: the endpoint, or AWS and its region. */
    public String where() {
        return where;
    }

    public String indexTable() {
        return indexTable;
    }

    /** What the index table holds: an index, or nothing yet. */
    public TableRole indexRole() {
        return indexRole;
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

package io.appendsfeed.indexer.cli;

import io.appendsfeed.model.DynamoClients;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.FeedPositions;
import io.appendsfeed.model.feed.FeedStreams;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.model.store.StoreItems;
import io.appendsfeed.reader.DynamoCheckpointStore;
import io.appendsfeed.reader.DynamoParkedStreams;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/**
 * The DynamoDB client and the feed's tables for one command run. Before a command reads or writes
 * anything, each table it names is checked to exist and to be of its role (an index table is not
 * a store table and the other way round), so that a wrong or swapped name fails with what to pass
 * instead rather than with a misleading answer.
 */
final class Connection implements AutoCloseable {

    /** What a command needs of the index table. */
    enum Use {
        /** reads it: an index table, or one not indexed into yet (reported as such) */
        READ,
        /** changes what readers see (checkpoints, parked streams): it must hold a feed */
        WRITE,
        /** indexes into it: an index table or an empty one, never a store */
        INDEX
    }

    /** What a table holds, told from a few cheap reads; {@code example} is a stream it holds, for messages. */
    private record Role(Kind kind, String example) {
        enum Kind { INDEX, STORE, EMPTY }

        String describe() {
            return switch (kind) {
                case INDEX -> "an index table (it holds " + example + ")";
                case STORE -> "a store table (it holds event streams such as '" + example + "' and no " + FeedStreams.INDEX + ")";
                case EMPTY -> "empty";
            };
        }
    }

    /** Items looked at to tell a store from the feed's own streams; a store's first items are streams. */
    private static final int ROLE_SAMPLE = 25;

    final DynamoClients.Settings client;
    final DynamoDbClient dynamo;
    /** Where the tables are: the endpoint, or AWS and its region. */
    final String where;
    final String indexTable;
    /** Null unless the command needs the store table. */
    final String storeTable;
    /** A client of the index table, allowed to write the feed's own {@code $} streams. */
    final StoreClient index;
    private final CliContext ctx;

    private Connection(CliContext ctx, DynamoClients.Settings client, DynamoDbClient dynamo, String where, String indexTable,
                       String storeTable) {
        this.ctx = ctx;
        this.client = client;
        this.dynamo = dynamo;
        this.where = where;
        this.indexTable = indexTable;
        this.storeTable = storeTable;
        this.index = new StoreClient(dynamo, StoreConfig.builder(indexTable).reservedStreams(true).clock(ctx.clock()).build());
    }

    /**
     * Connects and checks the index table (and the store table when {@code needStore}).
     *
     * @throws UsageException when a table is not named, does not exist or is not of its role, or the profile is unknown
     * @throws CannotConnectException when there is no region or no credentials, DynamoDB does not answer
     *         (after {@link CliSettings#MAX_ATTEMPTS} attempts) or it refuses the credentials
     * @throws SdkException when DynamoDB fails otherwise
     */
    static Connection open(CliContext ctx, CliSettings settings, Use use, boolean needStore) {
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
                throw new CannotConnectException(settings.profile() != null
                        ? "no AWS credentials for --profile '" + settings.profile() + "': add them to it, log in (aws sso login"
                                + " --profile " + settings.profile() + "), or pass another --profile"
                        : CliSettings.NO_CREDENTIALS, e);
            }
        });
        DynamoDbClient dynamo;
        try {
            dynamo = ctx.clients().apply(client);
        } catch (SdkClientException e) {
            throw new CannotConnectException(CliSettings.NO_REGION, e);
        }
        String where = settings.where(dynamo.serviceClientConfiguration().region());
        ctx.where().set(where);
        try {
            Connection c = new Connection(ctx, client, dynamo, where, indexTable, storeTable);
            c.checkRoles(use, needStore);
            return c;
        } catch (RuntimeException e) {
            dynamo.close();
            throw e;
        }
    }

    private void checkRoles(Use use, boolean needStore) {
        Role indexRole = role(describe(indexTable, "--index-table", CliSettings.INDEX_TABLE_VAR), "--index-table");
        Role storeRole = needStore ? role(describe(storeTable, "--store-table", CliSettings.STORE_TABLE_VAR), "--store-table") : null;
        if (indexRole.kind() == Role.Kind.STORE && storeRole != null && storeRole.kind() == Role.Kind.INDEX) {
            throw new UsageException("the tables are swapped: --index-table '" + indexTable + "' is " + indexRole.describe()
                    + " and --store-table '" + storeTable + "' is " + storeRole.describe() + "; exchange the two names");
        }
        if (indexRole.kind() == Role.Kind.STORE) {
            throw new UsageException("--index-table '" + indexTable + "' is " + indexRole.describe()
                    + ": pass the feed's index table (the one the indexer writes), or set " + CliSettings.INDEX_TABLE_VAR);
        }
        if (indexRole.kind() == Role.Kind.EMPTY && use == Use.WRITE) {
            throw new UsageException("--index-table '" + indexTable + "' holds no feed yet (no " + FeedStreams.INDEX
                    + "): nothing was indexed into it. Start the indexer first, or check the name");
        }
        if (storeRole != null && storeRole.kind() == Role.Kind.INDEX) {
            throw new UsageException("--store-table '" + storeTable + "' is " + storeRole.describe()
                    + ": pass the event store table (the one your application writes), or set " + CliSettings.STORE_TABLE_VAR);
        }
    }

    /**
     * An index table holds {@code $AppendsIndex-0} (written when an indexer first starts on it); a store table
     * holds event streams (names without {@code $}); a new table holds nothing yet. Both are in the store
     * format (keys {@code p}, {@code i}).
     *
     * @throws UsageException when the table is not in the store format at all
     */
    private Role role(TableDescription description, String option) {
        String table = description.tableName();
        List<KeySchemaElement> keys = description.keySchema();
        if (keys.size() != 2 || keys.stream().noneMatch(k -> k.attributeName().equals("p") && k.keyTypeAsString().equals("HASH"))
                || keys.stream().noneMatch(k -> k.attributeName().equals("i") && k.keyTypeAsString().equals("RANGE"))) {
            throw new UsageException(option + " '" + table + "' is not an appendsfeed table: its keys are "
                    + keys.stream().map(k -> k.attributeName() + " (" + k.keyTypeAsString() + ")").toList()
                    + ", where the store format has p (HASH) and i (RANGE)");
        }
        Map<String, AttributeValue> tip = dynamo.getItem(b -> b.tableName(table).consistentRead(true).projectionExpression("p")
                .key(Map.of("p", AttributeValue.fromS(FeedStreams.INDEX.value()), "i", AttributeValue.fromN(Long.toString(StoreItems.TIP_INDEX)))))
                .item();
        if (tip != null && !tip.isEmpty()) {
            return new Role(Role.Kind.INDEX, FeedStreams.INDEX.value());
        }
        List<String> sample = dynamo.scan(b -> b.tableName(table).limit(ROLE_SAMPLE).projectionExpression("p")).items().stream()
                .map(i -> i.get("p")).filter(p -> p != null && p.s() != null).map(AttributeValue::s).toList();
        return sample.stream().filter(p -> !p.startsWith(StreamName.RESERVED_PREFIX)).findFirst().map(s -> new Role(Role.Kind.STORE, s))
                // only the feed's own streams (checkpoints written before any indexing), or nothing at all
                .orElseGet(() -> sample.isEmpty() ? new Role(Role.Kind.EMPTY, null) : new Role(Role.Kind.INDEX, sample.get(0)));
    }

    /** @throws UsageException naming the option and variable when the table does not exist */
    TableDescription describe(String table, String option, String variable) {
        try {
            return dynamo.describeTable(b -> b.tableName(table)).table();
        } catch (ResourceNotFoundException e) {
            throw new UsageException((option.equals("--index-table") ? "index" : "store") + " table '" + table
                    + "' does not exist at " + where + ": pass " + option + " or set " + variable, e);
        }
    }

    DynamoCheckpointStore checkpoints() {
        return new DynamoCheckpointStore(index, ctx.clock());
    }

    DynamoParkedStreams parked() {
        return new DynamoParkedStreams(index, ctx.clock());
    }

    FeedPositions positions() {
        return new FeedPositions(index);
    }

    @Override
    public void close() {
        dynamo.close();
    }
}

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
 *
 * @param where where the tables are, for messages: the endpoint, or AWS and its region
 * @param storeTable null unless the command needs the store table
 */
record Connection(CliContext ctx, DynamoClients.Settings client, DynamoDbClient dynamo, String where, String indexTable, String storeTable,
                  StoreClient index) implements AutoCloseable {

    /** What a command needs of the index table. */
    enum Use {
        /** reads it: an index table, or one not indexed into yet (reported as such) */
        READ,
        /** changes what readers see (checkpoints, parked streams): it must hold a feed */
        WRITE,
        /** indexes into it: an index table or an empty one, never a store */
        INDEX
    }

    private enum Kind { INDEX, STORE, EMPTY }

    /** What a table holds, told from a few cheap reads; {@code example} is a stream it holds, for messages. */
    private record Role(Kind kind, String example) {
        String describe() {
            return switch (kind) {
                case INDEX -> "an index table (it holds " + example + ")";
                case STORE -> "a store table (it holds event streams such as '" + example + "' and no " + FeedStreams.INDEX + ")";
                case EMPTY -> "empty";
            };
        }
    }

    /**
     * Connects and checks the index table (and the store table when {@code needStore}).
     *
     * @throws CliException when a table is not named, does not exist or is not of its role, or the profile is unknown
     *         (exit 2); when there is no region or no credentials, DynamoDB does not answer (after
     *         {@link CliSettings#MAX_ATTEMPTS} attempts) or it refuses the credentials (exit 3)
     * @throws SdkException when DynamoDB fails otherwise
     */
    static Connection open(CliContext ctx, CliSettings settings, Use use, boolean needStore) {
        String indexTable = CliSettings.require(settings.indexTable(), "index", CliSettings.INDEX_TABLE_VAR);
        String storeTable = needStore ? CliSettings.require(settings.storeTable(), "store", CliSettings.STORE_TABLE_VAR) : null;
        if (indexTable.equals(storeTable)) {
            throw new CliException("--store-table and --index-table are both '" + indexTable + "': the feed is kept in a"
                    + " table of its own, the index table, never in the event store");
        }
        DynamoClients.Settings client = settings.dynamo(); // with a region, or it throws
        String where = settings.where(client.region().orElseThrow());
        ctx.where().set(where);
        client.credentials().ifPresent(c -> {
            try {
                c.resolveCredentials(); // now, once: the client would find them missing at its first call, inside a long message
            } catch (SdkClientException e) {
                throw new CliException(FeedCli.CANNOT_CONNECT, settings.profile() != null
                        ? "no AWS credentials for --profile '" + settings.profile() + "': add them to it, log in (aws sso login"
                                + " --profile " + settings.profile() + "), or pass another --profile"
                        : CliSettings.NO_CREDENTIALS, e);
            }
        });
        DynamoDbClient dynamo = ctx.clients().apply(client);
        try {
            // the index table's client may write the feed's own $ streams
            Connection c = new Connection(ctx, client, dynamo, where, indexTable, storeTable,
                    new StoreClient(dynamo, StoreConfig.builder(indexTable).reservedStreams(true).clock(ctx.clock()).build()));
            c.checkRoles(use, needStore);
            return c;
        } catch (RuntimeException e) {
            dynamo.close();
            throw e;
        }
    }

    private void checkRoles(Use use, boolean needStore) {
        Role indexRole = role(describe(indexTable, "index", CliSettings.INDEX_TABLE_VAR));
        Role storeRole = needStore ? role(describe(storeTable, "store", CliSettings.STORE_TABLE_VAR)) : null;
        if (indexRole.kind() == Kind.STORE && storeRole != null && storeRole.kind() == Kind.INDEX) {
            throw new CliException("the tables are swapped: --index-table '" + indexTable + "' is " + indexRole.describe()
                    + " and --store-table '" + storeTable + "' is " + storeRole.describe() + "; exchange the two names");
        }
        if (indexRole.kind() == Kind.STORE) {
            throw new CliException("--index-table '" + indexTable + "' is " + indexRole.describe()
                    + ": pass the feed's index table (the one the indexer writes), or set " + CliSettings.INDEX_TABLE_VAR);
        }
        if (indexRole.kind() == Kind.EMPTY && use == Use.WRITE) {
            throw new CliException("--index-table '" + indexTable + "' holds no feed yet (no " + FeedStreams.INDEX
                    + "): nothing was indexed into it. Start the indexer first, or check the name");
        }
        if (storeRole != null && storeRole.kind() == Kind.INDEX) {
            throw new CliException("--store-table '" + storeTable + "' is " + storeRole.describe()
                    + ": pass the event store table (the one your application writes), or set " + CliSettings.STORE_TABLE_VAR);
        }
    }

    /**
     * An index table holds {@code $AppendsIndex-0} (written when an indexer first starts on it); a store table
     * holds event streams (names without {@code $}); a new table holds nothing yet. Both are in the store
     * format (keys {@code p}, {@code i}).
     *
     * @throws CliException when the table is not in the store format at all
     */
    private Role role(TableDescription description) {
        String table = description.tableName();
        String option = table.equals(indexTable) ? "--index-table" : "--store-table";
        List<KeySchemaElement> keys = description.keySchema();
        if (keys.size() != 2 || keys.stream().noneMatch(k -> k.attributeName().equals("p") && k.keyTypeAsString().equals("HASH"))
                || keys.stream().noneMatch(k -> k.attributeName().equals("i") && k.keyTypeAsString().equals("RANGE"))) {
            throw new CliException(option + " '" + table + "' is not an appendsfeed table: its keys are "
                    + keys.stream().map(k -> k.attributeName() + " (" + k.keyTypeAsString() + ")").toList()
                    + ", where the store format has p (HASH) and i (RANGE)");
        }
        Map<String, AttributeValue> tip = dynamo.getItem(b -> b.tableName(table).consistentRead(true).projectionExpression("p")
                .key(Map.of("p", AttributeValue.fromS(FeedStreams.INDEX.value()), "i", AttributeValue.fromN(Long.toString(StoreItems.TIP_INDEX)))))
                .item();
        if (tip != null && !tip.isEmpty()) {
            return new Role(Kind.INDEX, FeedStreams.INDEX.value());
        }
        // a store's first items are streams: a few tell it from the feed's own streams
        List<String> sample = dynamo.scan(b -> b.tableName(table).limit(25).projectionExpression("p")).items().stream()
                .map(i -> i.get("p")).filter(p -> p != null && p.s() != null).map(AttributeValue::s).toList();
        return sample.stream().filter(p -> !p.startsWith(StreamName.RESERVED_PREFIX)).findFirst().map(s -> new Role(Kind.STORE, s))
                // only the feed's own streams (checkpoints written before any indexing), or nothing at all
                .orElseGet(() -> sample.isEmpty() ? new Role(Kind.EMPTY, null) : new Role(Kind.INDEX, sample.get(0)));
    }

    /** @throws CliException naming the option and variable when the {@code role} ("index", "store") table does not exist */
    TableDescription describe(String table, String role, String variable) {
        try {
            return dynamo.describeTable(b -> b.tableName(table)).table();
        } catch (ResourceNotFoundException e) {
            throw new CliException(role + " table '" + table + "' does not exist at " + where + ": pass --" + role + "-table or set "
                    + variable, e);
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

package io.appendsfeed.indexer.cli;

import static io.appendsfeed.indexer.settings.IndexerSettings.ENDPOINT;
import static io.appendsfeed.indexer.settings.IndexerSettings.INDEX_TABLE;
import static io.appendsfeed.indexer.settings.IndexerSettings.STORE_TABLE;

import io.appendsfeed.model.DynamoClients;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.FeedStreams;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.model.store.StoreItems;
import io.appendsfeed.model.store.StoreTables;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.ProfileCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.profiles.ProfileFile;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.DefaultAwsRegionProviderChain;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;

/**
 * The DynamoDB client and the feed's tables for one command run. The endpoint and the tables come from the
 * options, else their environment variables; the region and credentials from {@code --region} and
 * {@code --profile}, else the SDK's default chains. Each table named is checked to exist and to be of its role
 * before anything is read or written, so that a wrong or swapped name fails saying what to pass instead.
 *
 * @param where where the tables are, for messages: the endpoint (and which variable set it), or AWS and its region
 * @param storeTable null unless the command needs the store table
 */
record Connection(CliContext ctx, DynamoClients.Settings client, DynamoDbClient dynamo, String where, String indexTable, String storeTable,
                  StoreClient index) implements AutoCloseable {

    /** A dead endpoint fails within about {@value #DEAD_ENDPOINT_SECONDS} s, not after the SDK's default of 9 attempts. */
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(2);
    static final int MAX_ATTEMPTS = 3;
    static final int DEAD_ENDPOINT_SECONDS = 7;
    static final String NO_REGION = "no AWS region: pass --region (e.g. eu-west-1), set AWS_REGION, or use a --profile"
            + " (or AWS_PROFILE) whose config sets region";
    static final String NO_CREDENTIALS = "no AWS credentials: pass --profile NAME, set AWS_PROFILE, or set AWS_ACCESS_KEY_ID"
            + " and AWS_SECRET_ACCESS_KEY (or run where a role provides them)";
    private static final Pattern REGION = Pattern.compile("[a-z]{2}(-[a-z0-9]+)+-\\d+");

    /** The connection options as typed; null (or blank) when not given. */
    record Options(String endpoint, String region, String profile, String storeTable, String indexTable) {}

    /** What a command does with the index table: one it only reads may be new (empty); one it writes must hold a feed. */
    enum Use { READ, WRITE }

    /**
     * Connects and checks the index table (and the store table when {@code needStore}).
     *
     * @throws CliException when a value is malformed, a table is not named, does not exist or is not of its role, or the
     *         profile is unknown (exit 2); when there is no region or no credentials, DynamoDB does not answer (after
     *         {@link #MAX_ATTEMPTS} attempts) or it refuses the credentials (exit 3)
     * @throws SdkException when DynamoDB fails otherwise
     */
    static Connection open(CliContext ctx, Options o, Use use, boolean needStore) {
        Function<String, String> env = ctx.env();
        String indexTable = table(o.indexTable(), env, "index");
        String storeTable = needStore ? table(o.storeTable(), env, "store") : null;
        if (indexTable.equals(storeTable)) {
            throw new CliException("--store-table and --index-table are both '" + indexTable + "': the feed is kept in a"
                    + " table of its own, the index table, never in the event store");
        }
        DynamoClients.Settings client = client(o, env);
        String from = endpointFrom(o, env);
        String where = (from == null ? "AWS " + client.region().orElseThrow().id()
                : client.endpoint().orElseThrow() + (from.equals("--endpoint") ? "" : " (from " + from + ")"))
                + (o.profile() == null ? "" : ", profile " + o.profile());
        ctx.where().set(where);
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

    /**
     * How to build the client, failing fast. A loopback endpoint gets DynamoDB Local's credentials unless a profile is
     * named; otherwise region and credentials are resolved here once, so that their absence is one line rather than the
     * client's long message at its first call.
     *
     * @throws CliException for a malformed endpoint or region, or a profile not in the AWS config or credentials file
     *         (exit 2); when no region, or no credentials, can be found (exit 3)
     */
    static DynamoClients.Settings client(Options o, Function<String, String> env) {
        if (o.region() != null && !REGION.matcher(o.region()).matches()) {
            throw new CliException("--region '" + o.region() + "' is not an AWS region name: give one like eu-west-1 or us-east-1");
        }
        String from = endpointFrom(o, env);
        DynamoClients.Settings s;
        try {
            s = DynamoClients.Settings.of(from == null ? null : from.equals("--endpoint") ? o.endpoint() : env.apply(from), o.region())
                    .failingFast(CONNECT_TIMEOUT, MAX_ATTEMPTS);
        } catch (IllegalArgumentException bad) {
            throw new CliException(from + ": " + bad.getMessage(), bad);
        }
        String profile = o.profile();
        if (profile == null && s.endpoint().filter(DynamoClients::isLoopback).isPresent()) {
            return s; // DynamoDB Local: local credentials and region
        }
        if (profile != null) {
            ProfileFile file = ProfileFile.defaultProfileFile();
            if (file.profile(profile).isEmpty()) {
                throw new CliException("--profile '" + profile + "' is not in your AWS config or credentials file; "
                        + (file.profiles().isEmpty() ? "there are no profiles" : "profiles there: " + String.join(", ", file.profiles().keySet())));
            }
        }
        Region region;
        try {
            region = s.region().orElseGet(() -> DefaultAwsRegionProviderChain.builder().profileName(profile).build().getRegion());
        } catch (SdkClientException e) {
            throw new CliException(FeedCli.CANNOT_CONNECT, NO_REGION, e);
        }
        if (!REGION.matcher(region.id()).matches()) {
            throw new CliException("the region '" + region.id() + "' (from AWS_REGION or the profile) is not an AWS region name: give one"
                    + " like eu-west-1 or us-east-1");
        }
        AwsCredentialsProvider credentials = profile == null ? DefaultCredentialsProvider.builder().build() : ProfileCredentialsProvider.create(profile);
        try {
            credentials.resolveCredentials();
        } catch (SdkClientException e) {
            throw new CliException(FeedCli.CANNOT_CONNECT, profile == null ? NO_CREDENTIALS : "no AWS credentials for --profile '" + profile
                    + "': add them to it, log in (aws sso login --profile " + profile + "), or pass another --profile", e);
        }
        return s.with(Optional.of(region), Optional.of(credentials));
    }

    /** The option or variable the endpoint comes from: the SDK's own variables too, service-specific first; null for none. */
    private static String endpointFrom(Options o, Function<String, String> env) {
        return Stream.of("--endpoint", ENDPOINT, "AWS_ENDPOINT_URL_DYNAMODB", "AWS_ENDPOINT_URL")
                .filter(n -> (n.equals("--endpoint") ? o.endpoint() : first(env.apply(n), null)) != null).findFirst().orElse(null);
    }

    /** The {@code role} ("index", "store") table named by its option, else its variable. @throws CliException saying how to name it */
    private static String table(String option, Function<String, String> env, String role) {
        String table = first(option, env.apply(variable(role)));
        if (table == null) {
            throw new CliException("no " + role + " table given: pass --" + role + "-table NAME or set " + variable(role));
        }
        return table;
    }

    private static String variable(String role) {
        return role.equals("index") ? INDEX_TABLE : STORE_TABLE;
    }

    /** The option if given, else the variable; blanks count as absent. */
    static String first(String option, String variable) {
        if (option != null && !option.isBlank()) {
            return option.trim();
        }
        return variable == null || variable.isBlank() ? null : variable.trim();
    }

    /**
     * Refuses a table for a role it cannot hold: an index table that holds event streams (a store table), or no feed
     * when the command changes it; a store table that holds a feed.
     */
    private void checkRoles(Use use, boolean needStore) {
        check(indexTable, "index");
        if (needStore) {
            check(storeTable, "store");
        }
        boolean storeHoldsFeed = needStore && holdsFeed(storeTable);
        if (!holdsFeed(indexTable)) {
            String event = eventStream(indexTable);
            if (event != null) {
                throw new CliException("--index-table '" + indexTable + "' is a store table (it holds event streams such as '" + event + "')"
                        + (storeHoldsFeed ? " and --store-table '" + storeTable + "' is an index table: exchange the two names"
                        : ": pass the feed's index table (the one the indexer writes), or set " + INDEX_TABLE));
            }
            if (use == Use.WRITE) {
                throw new CliException("--index-table '" + indexTable + "' holds no feed yet (no " + FeedStreams.INDEX
                        + "): nothing was indexed into it. Start the indexer first, or check the name");
            }
        }
        if (storeHoldsFeed) {
            throw new CliException("--store-table '" + storeTable + "' is an index table (it holds " + FeedStreams.INDEX
                    + "): pass the event store table (the one your application writes), or set " + STORE_TABLE);
        }
    }

    /** @throws CliException when the {@code role} ("index", "store") table does not exist here, or is not of the store format */
    private void check(String table, String role) {
        try {
            dynamo.describeTable(b -> b.tableName(table));
        } catch (ResourceNotFoundException e) {
            throw new CliException(role + " table '" + table + "' does not exist at " + where + ": pass --" + role + "-table or set "
                    + variable(role), e);
        }
        try {
            StoreTables.verify(dynamo, table, false);
        } catch (StoreTables.WrongTableShapeException e) {
            throw new CliException("--" + role + "-table: " + e.getMessage(), e);
        }
    }

    private boolean holdsFeed(String table) {
        Map<String, AttributeValue> tip = dynamo.getItem(b -> b.tableName(table).consistentRead(true).projectionExpression("p")
                .key(Map.of("p", AttributeValue.fromS(FeedStreams.INDEX.value()), "i", AttributeValue.fromN(Long.toString(StoreItems.TIP_INDEX)))))
                .item();
        return tip != null && !tip.isEmpty();
    }

    /** An event stream among the table's first items, or null: a store's first items are streams, an index holds only {@code $} ones. */
    private String eventStream(String table) {
        return dynamo.scan(b -> b.tableName(table).limit(25).projectionExpression("p")).items().stream()
                .map(i -> i.get("p")).filter(p -> p != null && p.s() != null).map(AttributeValue::s)
                .filter(p -> !p.startsWith(StreamName.RESERVED_PREFIX)).findFirst().orElse(null);
    }

    @Override
    public void close() {
        dynamo.close();
    }
}

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
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.ProfileCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.profiles.Profile;
import software.amazon.awssdk.profiles.ProfileFile;
import software.amazon.awssdk.profiles.ProfileFileLocation;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/**
 * The DynamoDB client and the feed's tables for one command run, from the connection options, each falling back
 * to its environment variable (the one place the CLI reads them). Before a command reads or writes anything, each
 * table it names is checked to exist and to be of its role (an index table is not a store table and the other way
 * round), so that a wrong or swapped name fails with what to pass instead rather than with a misleading answer.
 *
 * @param where where the tables are, for messages: the endpoint (and which variable set it), or AWS and its region
 * @param storeTable null unless the command needs the store table
 */
record Connection(CliContext ctx, DynamoClients.Settings client, DynamoDbClient dynamo, String where, String indexTable, String storeTable,
                  StoreClient index) implements AutoCloseable {

    static final String ENDPOINT_VAR = "APPENDS_DYNAMODB_ENDPOINT";
    static final String REGION_VAR = "AWS_REGION";
    static final String STORE_TABLE_VAR = "APPENDS_STORE_TABLE";
    static final String INDEX_TABLE_VAR = "APPENDS_INDEX_TABLE";
    static final String PROFILE_VAR = "AWS_PROFILE";
    static final String CONFIG_FILE_VAR = "AWS_CONFIG_FILE";
    static final String CREDENTIALS_FILE_VAR = "AWS_SHARED_CREDENTIALS_FILE";
    /** With {@code true}, the machine's instance role is not asked for credentials (no call to the metadata service). */
    static final String METADATA_DISABLED_VAR = "AWS_EC2_METADATA_DISABLED";
    /**
     * The CLI's clients give up on an endpoint that does not answer after {@value #MAX_ATTEMPTS} attempts of at most
     * {@link #CONNECT_TIMEOUT} each to connect (the SDK's back-off between them is well under a second): a dead
     * endpoint fails within about {@value #DEAD_ENDPOINT_SECONDS} s, a refused connection at once. The SDK's
     * default for DynamoDB is 9 attempts (9 s against a closed port).
     */
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(2);
    static final int MAX_ATTEMPTS = 3;
    static final int DEAD_ENDPOINT_SECONDS = 7;
    static final String NO_REGION = "no AWS region: pass --region (e.g. eu-west-1), set " + REGION_VAR + ", or use a --profile"
            + " (or " + PROFILE_VAR + ") whose config sets region";
    static final String NO_CREDENTIALS = "no AWS credentials: pass --profile NAME, set " + PROFILE_VAR + ", or set AWS_ACCESS_KEY_ID"
            + " and AWS_SECRET_ACCESS_KEY (or run where a role provides them)";
    private static final Pattern REGION = Pattern.compile("[a-z]{2}(-[a-z0-9]+)+-\\d+");

    /** The connection options as typed, trimmed; null when not given (or blank). */
    record Options(String endpoint, String region, String profile, String storeTable, String indexTable) {
        Options {
            endpoint = first(endpoint, null);
            region = first(region, null);
            profile = first(profile, null);
            storeTable = first(storeTable, null);
            indexTable = first(indexTable, null);
        }
    }

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
     * @throws CliException when a value is malformed, a table is not named, does not exist or is not of its role, or the
     *         profile is unknown (exit 2); when there is no region or no credentials, DynamoDB does not answer (after
     *         {@link #MAX_ATTEMPTS} attempts) or it refuses the credentials (exit 3)
     * @throws SdkException when DynamoDB fails otherwise
     */
    static Connection open(CliContext ctx, Options o, Use use, boolean needStore) {
        Function<String, String> env = ctx.env();
        String indexTable = table(first(o.indexTable(), env.apply(INDEX_TABLE_VAR)), "index", INDEX_TABLE_VAR);
        String storeTable = needStore ? table(first(o.storeTable(), env.apply(STORE_TABLE_VAR)), "store", STORE_TABLE_VAR) : null;
        if (indexTable.equals(storeTable)) {
            throw new CliException("--store-table and --index-table are both '" + indexTable + "': the feed is kept in a"
                    + " table of its own, the index table, never in the event store");
        }
        DynamoClients.Settings client = client(o, env); // with a region, or it throws
        String from = endpointFrom(o, env);
        String where = (from == null ? "AWS " + client.region().orElseThrow().id()
                : client.endpoint().orElseThrow() + (from.equals("--endpoint") ? "" : " (from " + from + ")"))
                + (o.profile() == null ? "" : ", profile " + o.profile());
        ctx.where().set(where);
        client.credentials().ifPresent(c -> {
            try {
                c.resolveCredentials(); // now, once: the client would find them missing at its first call, inside a long message
            } catch (SdkClientException e) {
                throw new CliException(FeedCli.CANNOT_CONNECT, o.profile() == null ? NO_CREDENTIALS : "no AWS credentials for --profile '"
                        + o.profile() + "': add them to it, log in (aws sso login --profile " + o.profile() + "), or pass another --profile", e);
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

    /**
     * How to build the client, failing fast ({@link #CONNECT_TIMEOUT}, {@link #MAX_ATTEMPTS}). A loopback endpoint
     * (DynamoDB Local) gets static local credentials, unless a profile is named. Otherwise the region is {@code --region},
     * {@code AWS_REGION} or the profile's ({@code --profile}, {@code AWS_PROFILE}, else the default profile), and the
     * credentials the profile's, {@code AWS_ACCESS_KEY_ID}/{@code AWS_SECRET_ACCESS_KEY}, or the SDK's chain for the rest
     * (default profile, container and pod roles, the instance role), all read from {@code env}.
     *
     * @throws CliException for a malformed endpoint or region, or a profile not in the AWS config or credentials file
     *         (exit 2); when no region, or no source of credentials, is anywhere (exit 3)
     */
    static DynamoClients.Settings client(Options o, Function<String, String> env) {
        String from = endpointFrom(o, env);
        String region = first(o.region(), env.apply(REGION_VAR));
        if (region != null && !REGION.matcher(region).matches()) {
            throw new CliException((o.region() != null ? "--region" : REGION_VAR) + " '" + region
                    + "' is not an AWS region name: give one like eu-west-1 or us-east-1");
        }
        DynamoClients.Settings s;
        try {
            s = DynamoClients.Settings.of(from == null ? null : from.equals("--endpoint") ? o.endpoint() : env.apply(from), region)
                    .failingFast(CONNECT_TIMEOUT, MAX_ATTEMPTS);
        } catch (IllegalArgumentException bad) {
            throw new CliException(from + ": " + bad.getMessage(), bad);
        }
        String named = first(o.profile(), env.apply(PROFILE_VAR));
        if (o.profile() == null && s.endpoint().filter(DynamoClients::isLoopback).isPresent()) {
            return s; // DynamoDB Local: local credentials and region
        }
        ProfileFile file = profileFile(env);
        Optional<Profile> p = file.profile(named != null ? named : "default");
        if (named != null && p.isEmpty()) {
            throw new CliException((o.profile() != null ? "--profile '" : PROFILE_VAR + " '") + named + "' is not in your AWS"
                    + " config or credentials file; " + (file.profiles().isEmpty() ? "there are no profiles"
                    : "profiles there: " + String.join(", ", file.profiles().keySet())));
        }
        Optional<Region> r = s.region().or(() -> p.flatMap(x -> x.property("region")).map(Region::of));
        if (r.isEmpty()) {
            throw new CliException(FeedCli.CANNOT_CONNECT, NO_REGION, null);
        }
        return s.with(r, Optional.of(credentials(env, file, named, p.isPresent())));
    }

    private static AwsCredentialsProvider credentials(Function<String, String> env, ProfileFile file, String named, boolean defaultProfile) {
        if (named != null) {
            return ProfileCredentialsProvider.builder().profileFile(file).profileName(named).build();
        }
        String key = first(env.apply("AWS_ACCESS_KEY_ID"), null);
        String secret = first(env.apply("AWS_SECRET_ACCESS_KEY"), null);
        if (key != null && secret != null) {
            String token = first(env.apply("AWS_SESSION_TOKEN"), null);
            return StaticCredentialsProvider.create(token == null ? AwsBasicCredentials.create(key, secret)
                    : AwsSessionCredentials.create(key, secret, token));
        }
        if (defaultProfile) {
            return ProfileCredentialsProvider.builder().profileFile(file).profileName("default").build();
        }
        // set in containers and pods with a role, where the SDK's chain finds their credentials
        boolean role = Stream.of("AWS_WEB_IDENTITY_TOKEN_FILE", "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI", "AWS_CONTAINER_CREDENTIALS_FULL_URI")
                .anyMatch(v -> first(env.apply(v), null) != null) || !"true".equalsIgnoreCase(first(env.apply(METADATA_DISABLED_VAR), "false"));
        if (!role) {
            throw new CliException(FeedCli.CANNOT_CONNECT, NO_CREDENTIALS, null);
        }
        return DefaultCredentialsProvider.builder().build(); // the SDK's chain: web identity, container, instance role
    }

    /** The AWS config and credentials files ({@code AWS_CONFIG_FILE}, {@code AWS_SHARED_CREDENTIALS_FILE}, else ~/.aws/). */
    private static ProfileFile profileFile(Function<String, String> env) {
        ProfileFile.Aggregator files = ProfileFile.aggregator();
        Path config = Path.of(first(env.apply(CONFIG_FILE_VAR), ProfileFileLocation.configurationFilePath().toString()));
        Path credentials = Path.of(first(env.apply(CREDENTIALS_FILE_VAR), ProfileFileLocation.credentialsFilePath().toString()));
        if (Files.isRegularFile(config)) {
            files.addFile(ProfileFile.builder().content(config).type(ProfileFile.Type.CONFIGURATION).build());
        }
        if (Files.isRegularFile(credentials)) {
            files.addFile(ProfileFile.builder().content(credentials).type(ProfileFile.Type.CREDENTIALS).build());
        }
        return files.build();
    }

    /** The option or variable the endpoint comes from: the SDK's own variables too, service-specific first; null for none. */
    private static String endpointFrom(Options o, Function<String, String> env) {
        return Stream.of("--endpoint", ENDPOINT_VAR, "AWS_ENDPOINT_URL_DYNAMODB", "AWS_ENDPOINT_URL")
                .filter(n -> (n.equals("--endpoint") ? o.endpoint() : first(env.apply(n), null)) != null).findFirst().orElse(null);
    }

    /** @throws CliException saying how to name the table ({@code "index"} or {@code "store"}) when none is given */
    private static String table(String table, String role, String variable) {
        if (table == null) {
            throw new CliException("no " + role + " table given: pass --" + role + "-table NAME or set " + variable);
        }
        return table;
    }

    /** The option if given, else the variable; blanks count as absent. */
    private static String first(String option, String variable) {
        if (option != null && !option.isBlank()) {
            return option.trim();
        }
        return variable == null || variable.isBlank() ? null : variable.trim();
    }
    private void checkRoles(Use use, boolean needStore) {
        Role indexRole = role(describe(indexTable, "index", INDEX_TABLE_VAR));
        Role storeRole = needStore ? role(describe(storeTable, "store", STORE_TABLE_VAR)) : null;
        if (indexRole.kind() == Kind.STORE && storeRole != null && storeRole.kind() == Kind.INDEX) {
            throw new CliException("the tables are swapped: --index-table '" + indexTable + "' is " + indexRole.describe()
                    + " and --store-table '" + storeTable + "' is " + storeRole.describe() + "; exchange the two names");
        }
        if (indexRole.kind() == Kind.STORE) {
            throw new CliException("--index-table '" + indexTable + "' is " + indexRole.describe()
                    + ": pass the feed's index table (the one the indexer writes), or set " + INDEX_TABLE_VAR);
        }
        if (indexRole.kind() == Kind.EMPTY && use == Use.WRITE) {
            throw new CliException("--index-table '" + indexTable + "' holds no feed yet (no " + FeedStreams.INDEX
                    + "): nothing was indexed into it. Start the indexer first, or check the name");
        }
        if (storeRole != null && storeRole.kind() == Kind.INDEX) {
            throw new CliException("--store-table '" + storeTable + "' is " + storeRole.describe()
                    + ": pass the event store table (the one your application writes), or set " + STORE_TABLE_VAR);
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

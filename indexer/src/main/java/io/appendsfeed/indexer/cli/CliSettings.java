package io.appendsfeed.indexer.cli;

import io.appendsfeed.model.DynamoClients;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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
import software.amazon.awssdk.profiles.Profile;
import software.amazon.awssdk.profiles.ProfileFile;
import software.amazon.awssdk.profiles.ProfileFileLocation;
import software.amazon.awssdk.regions.Region;

/**
 * Connection and table settings from the command line, falling back to the environment: the one
 * place the CLI reads environment variables. Values are checked here, so that a malformed one is
 * a usage error naming where it came from, before anything connects.
 *
 * @param endpoint null for AWS's regional endpoint
 * @param endpointFrom the option or variable the endpoint came from, for messages
 * @param region null for the SDK's chain (or the profile's region)
 * @param profile null for none (the SDK's default chain, which reads {@code AWS_PROFILE} itself)
 * @param storeTable null when neither the option nor the variable is given
 * @param indexTable null when neither the option nor the variable is given
 * @param env the environment, for the profile, credentials and profile-file variables
 */
record CliSettings(URI endpoint, String endpointFrom, String region, String profile, String storeTable, String indexTable,
                          Function<String, String> env) {

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

    /**
     * Each value given on the command line wins over its environment variable; blanks count as absent.
     *
     * @throws CliException for an endpoint that is not an http(s) URL or a region that is not a region name
     */
    static CliSettings resolve(String endpoint, String region, String profile, String storeTable, String indexTable,
                                   Function<String, String> env) {
        // the SDK's own endpoint variables too, service-specific first: honoured, and named in messages
        String from = Stream.of("--endpoint", ENDPOINT_VAR, "AWS_ENDPOINT_URL_DYNAMODB", "AWS_ENDPOINT_URL")
                .filter(n -> first(n.equals("--endpoint") ? endpoint : env.apply(n), null) != null).findFirst().orElse(null);
        URI uri = null;
        try {
            uri = from == null ? null : DynamoClients.endpoint(first(from.equals("--endpoint") ? endpoint : env.apply(from), null));
        } catch (IllegalArgumentException bad) {
            throw new CliException(from + ": " + bad.getMessage(), bad);
        }
        String r = first(region, env.apply(REGION_VAR));
        if (r != null && !REGION.matcher(r).matches()) {
            throw new CliException((region != null && !region.isBlank() ? "--region" : REGION_VAR) + " '" + r
                    + "' is not an AWS region name: give one like eu-west-1 or us-east-1");
        }
        return new CliSettings(uri, from, r, first(profile, null), first(storeTable, env.apply(STORE_TABLE_VAR)),
                first(indexTable, env.apply(INDEX_TABLE_VAR)), env);
    }

    /**
     * How to build the client, failing fast ({@link #CONNECT_TIMEOUT}, {@link #MAX_ATTEMPTS}): the endpoint
     * and region given; for a loopback endpoint (DynamoDB Local) static local credentials, unless a
     * profile is named. Otherwise the region is {@code --region}, {@code AWS_REGION} or the profile's
     * ({@code --profile}, {@code AWS_PROFILE}, else the default profile), and the credentials the
     * profile's, {@code AWS_ACCESS_KEY_ID}/{@code AWS_SECRET_ACCESS_KEY}, or the SDK's chain for the
     * rest (default profile, container and pod roles, the instance role), all read from {@link #env}.
     *
     * @throws CliException when the profile is not in the AWS config or credentials file (exit 2), or when no region,
     *         or no source of credentials, is anywhere (exit 3)
     */
    DynamoClients.Settings dynamo() {
        DynamoClients.Settings s = DynamoClients.Settings.of(endpoint == null ? null : endpoint.toString(), region)
                .failingFast(CONNECT_TIMEOUT, MAX_ATTEMPTS);
        if (profile == null && endpoint != null && DynamoClients.isLoopback(endpoint)) {
            return s; // DynamoDB Local: local credentials and region
        }
        String named = profile != null ? profile : first(env.apply(PROFILE_VAR), null);
        ProfileFile file = profileFile();
        Optional<Profile> p = file.profile(named != null ? named : "default");
        if (named != null && p.isEmpty()) {
            throw new CliException((profile != null ? "--profile '" : PROFILE_VAR + " '") + named + "' is not in your AWS config or"
                    + " credentials file; " + (file.profiles().isEmpty() ? "there are no profiles"
                    : "profiles there: " + String.join(", ", file.profiles().keySet())));
        }
        Optional<Region> r = s.region().or(() -> p.flatMap(x -> x.property("region")).map(Region::of));
        if (r.isEmpty()) {
            throw new CliException(FeedCli.CANNOT_CONNECT, NO_REGION, null);
        }
        return s.with(r, Optional.of(credentials(file, named, p.isPresent())));
    }

    private AwsCredentialsProvider credentials(ProfileFile file, String named, boolean defaultProfile) {
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
    private ProfileFile profileFile() {
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

    /** @throws CliException saying how to name the table ({@code "index"} or {@code "store"}) when none is given */
    static String require(String table, String role, String variable) {
        if (table == null) {
            throw new CliException("no " + role + " table given: pass --" + role + "-table NAME or set " + variable);
        }
        return table;
    }

    /** Where the tables are, for messages: the endpoint (and which variable set it), or AWS and the region. */
    String where(Region region) {
        String profiled = profile == null ? "" : ", profile " + profile;
        if (endpoint != null) {
            return endpoint + (endpointFrom.equals("--endpoint") ? "" : " (from " + endpointFrom + ")") + profiled;
        }
        return "AWS " + region.id() + profiled;
    }

    private static String first(String option, String variable) {
        if (option != null && !option.isBlank()) {
            return option.trim();
        }
        return variable == null || variable.isBlank() ? null : variable.trim();
    }
}

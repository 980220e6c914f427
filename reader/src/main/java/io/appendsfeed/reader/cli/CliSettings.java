package io.appendsfeed.reader.cli;

import io.appendsfeed.model.DynamoClients;
import java.net.URI;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;
import software.amazon.awssdk.profiles.Profile;
import software.amazon.awssdk.profiles.ProfileFile;
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
 */
public record CliSettings(URI endpoint, String endpointFrom, String region, String profile, String storeTable, String indexTable) {

    public static final String ENDPOINT_VAR = "APPENDS_DYNAMODB_ENDPOINT";
    /** The SDK's own endpoint variables, service-specific first: honoured, and named in messages. */
    public static final String SDK_ENDPOINT_VAR = "AWS_ENDPOINT_URL_DYNAMODB";
    public static final String SDK_GLOBAL_ENDPOINT_VAR = "AWS_ENDPOINT_URL";
    public static final String REGION_VAR = "AWS_REGION";
    public static final String STORE_TABLE_VAR = "APPENDS_STORE_TABLE";
    public static final String INDEX_TABLE_VAR = "APPENDS_INDEX_TABLE";
    private static final Pattern REGION = Pattern.compile("[a-z]{2}(-[a-z0-9]+)+-\\d+");

    /**
     * Each value given on the command line wins over its environment variable; blanks count as absent.
     *
     * @throws UsageException for an endpoint that is not an http(s) URL or a region that is not a region name
     */
    public static CliSettings resolve(String endpoint, String region, String profile, String storeTable, String indexTable,
                                   Function<String, String> env) {
        String[][] endpoints = {{"--endpoint", endpoint}, {ENDPOINT_VAR, env.apply(ENDPOINT_VAR)},
            {SDK_ENDPOINT_VAR, env.apply(SDK_ENDPOINT_VAR)}, {SDK_GLOBAL_ENDPOINT_VAR, env.apply(SDK_GLOBAL_ENDPOINT_VAR)}};
        URI uri = null;
        String from = null;
        for (String[] e : endpoints) {
            if (e[1] != null && !e[1].isBlank()) {
                try {
                    uri = DynamoClients.endpoint(e[1]);
                } catch (IllegalArgumentException bad) {
                    throw new UsageException(e[0] + ": " + bad.getMessage(), bad);
                }
                from = e[0];
                break;
            }
        }
        String r = first(region, env.apply(REGION_VAR));
        if (r != null && !REGION.matcher(r).matches()) {
            throw new UsageException((region != null && !region.isBlank() ? "--region" : REGION_VAR) + " '" + r
                    + "' is not an AWS region name: give one like eu-west-1 or us-east-1");
        }
        return new CliSettings(uri, from, r, first(profile, null), first(storeTable, env.apply(STORE_TABLE_VAR)),
                first(indexTable, env.apply(INDEX_TABLE_VAR)));
    }

    /**
     * How to build the client: the endpoint and region given; for a loopback endpoint (DynamoDB
     * Local) static local credentials, unless a profile is named; otherwise the SDK's chains.
     *
     * @throws UsageException when the profile is not in the AWS config or credentials file
     */
    public DynamoClients.Settings dynamo() {
        DynamoClients.Settings s = DynamoClients.Settings.of(endpoint == null ? null : endpoint.toString(), region);
        if (profile == null) {
            return s;
        }
        ProfileFile file = ProfileFile.defaultProfileFile();
        Optional<Profile> p = file.profile(profile);
        if (p.isEmpty()) {
            throw new UsageException("--profile '" + profile + "' is not in your AWS config or credentials file; "
                    + (file.profiles().isEmpty() ? "there are no profiles" : "profiles there: " + String.join(", ", file.profiles().keySet())));
        }
        return s.withProfile(profile, p.get().property("region").map(Region::of));
    }

    /** @throws UsageException saying how to name the index table when none is given */
    public String requireIndexTable() {
        if (indexTable == null) {
            throw new UsageException("no index table given: pass --index-table NAME or set " + INDEX_TABLE_VAR);
        }
        return indexTable;
    }

    /** @throws UsageException saying how to name the store table when none is given */
    public String requireStoreTable() {
        if (storeTable == null) {
            throw new UsageException("no store table given: pass --store-table NAME or set " + STORE_TABLE_VAR);
        }
        return storeTable;
    }

    /**
     * Where the tables are, for messages: the endpoint (and which variable set it), or AWS and the
     * region the client actually uses.
     */
    public String where(Region resolved) {
        String profiled = profile == null ? "" : ", profile " + profile;
        if (endpoint != null) {
            return endpoint + (endpointFrom.equals("--endpoint") ? "" : " (from " + endpointFrom + ")") + profiled;
        }
        return "AWS " + (resolved == null ? "(default region)" : resolved.id()) + profiled;
    }

    private static String first(String option, String variable) {
        if (option != null && !option.isBlank()) {
            return option.trim();
        }
        return variable == null || variable.isBlank() ? null : variable.trim();
    }
}

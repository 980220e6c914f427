package io.appendsfeed.reader.cli.internal;

import java.util.function.Function;

/**
 * Connection settings from the command line, falling back to the environment. The one place the
 * CLI reads environment variables.
 *
 * @param endpoint null for AWS
 * @param region null for the SDK's default chain
 * @param storeTable null when neither the option nor the variable is given
 * @param indexTable null when neither the option nor the variable is given
 */
public record Settings(String endpoint, String region, String storeTable, String indexTable) {

    public static final String ENDPOINT_VAR = "APPENDS_DYNAMODB_ENDPOINT";
    public static final String REGION_VAR = "AWS_REGION";
    public static final String STORE_TABLE_VAR = "APPENDS_STORE_TABLE";
    public static final String INDEX_TABLE_VAR = "APPENDS_INDEX_TABLE";

    /** Each value given on the command line wins over its environment variable; blanks count as absent. */
    public static Settings resolve(String endpoint, String region, String storeTable, String indexTable,
                                   Function<String, String> env) {
        return new Settings(first(endpoint, env.apply(ENDPOINT_VAR)), first(region, env.apply(REGION_VAR)),
                first(storeTable, env.apply(STORE_TABLE_VAR)), first(indexTable, env.apply(INDEX_TABLE_VAR)));
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

    /** Where the tables are, for messages: the endpoint, or AWS and its region. */
    public String where() {
        if (endpoint != null) {
            return endpoint;
        }
        return region == null ? "AWS (default region)" : "AWS " + region;
    }

    private static String first(String option, String variable) {
        if (option != null && !option.isBlank()) {
            return option.trim();
        }
        return variable == null || variable.isBlank() ? null : variable.trim();
    }
}

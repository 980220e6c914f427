package io.appendsfeed.indexer.lambda;

import io.appendsfeed.indexer.EpochLimits;
import io.appendsfeed.indexer.IndexerConfig;
import io.appendsfeed.indexer.SameTableException;
import io.appendsfeed.model.DynamoClients;
import java.util.function.Function;

/**
 * The Lambda's settings, read from environment variables in this one place (through a
 * {@code Function<String,String>} so that tests pass a map).
 *
 * <table>
 * <tr><td>{@code APPENDS_INDEX_TABLE}</td><td>required: the index table</td></tr>
 * <tr><td>{@code APPENDS_STORE_TABLE}</td><td>the store table whose stream is indexed: required by the
 * Lambda handler, which refuses records of any other table; never the index table</td></tr>
 * <tr><td>{@code APPENDS_PARTITIONS}</td><td>partition count (default 1); must match the index once created</td></tr>
 * <tr><td>{@code APPENDS_EPOCH_MAX_EVENTS}</td><td>default 999999</td></tr>
 * <tr><td>{@code APPENDS_EPOCH_MAX_BYTES}</td><td>default 2097152</td></tr>
 * <tr><td>{@code APPENDS_EPOCH_MAX_STREAMS}</td><td>default 100000</td></tr>
 * <tr><td>{@code APPENDS_ALLOW_GAPS}</td><td>{@code true} to index past gaps with a WARN (default false)</td></tr>
 * <tr><td>{@code APPENDS_STORE_PREDATES_FEED}</td><td>{@code true} declares a store with events from before the feed,
 *     indexed by a backfill: streams whose earlier events are not where their write times put them are accepted as
 *     they start (default false; see the indexer README, "Never a silent gap")</td></tr>
 * <tr><td>{@code APPENDS_BATCH_SIZE}</td><td>the event source mapping's {@code BatchSize} (the template sets it): a
 * batch that large means more records are waiting, so the epochs' Tips may lag behind for up to
 * {@code APPENDS_TIP_LAG_MS} and each batch is one write; unset or 0: every batch moves the Tips</td></tr>
 * <tr><td>{@code APPENDS_TIP_LAG_MS}</td><td>how long a Tip may lag while records are waiting (default 1000; 0 never)</td></tr>
 * <tr><td>{@code APPENDS_DYNAMODB_ENDPOINT}</td><td>optional endpoint override, e.g. {@code http://localhost:8000}</td></tr>
 * <tr><td>{@code AWS_REGION}</td><td>set by Lambda</td></tr>
 * </table>
 */
public record LambdaSettings(String storeTable, IndexerConfig config, DynamoClients.Settings dynamo, int batchSize) {

    public static final String INDEX_TABLE = "APPENDS_INDEX_TABLE";
    public static final String STORE_TABLE = "APPENDS_STORE_TABLE";
    public static final String PARTITIONS = "APPENDS_PARTITIONS";
    public static final String EPOCH_MAX_EVENTS = "APPENDS_EPOCH_MAX_EVENTS";
    public static final String EPOCH_MAX_BYTES = "APPENDS_EPOCH_MAX_BYTES";
    public static final String EPOCH_MAX_STREAMS = "APPENDS_EPOCH_MAX_STREAMS";
    public static final String ALLOW_GAPS = "APPENDS_ALLOW_GAPS";
    public static final String STORE_PREDATES_FEED = "APPENDS_STORE_PREDATES_FEED";
    public static final String ENDPOINT = "APPENDS_DYNAMODB_ENDPOINT";
    public static final String BATCH_SIZE = "APPENDS_BATCH_SIZE";
    public static final String TIP_LAG_MS = "APPENDS_TIP_LAG_MS";
    public static final String REGION = "AWS_REGION";

    /**
     * @param storeTable null when not set (the KCL worker and the backfill take it from their own settings)
     * @param batchSize the event source mapping's batch size; 0 when unknown
     * @throws SameTableException when the store table is the index table
     */
    public LambdaSettings {
        java.util.Objects.requireNonNull(config, "config");
        java.util.Objects.requireNonNull(dynamo, "dynamo");
        if (batchSize < 0) {
            throw new IllegalArgumentException("batchSize must be >= 0 (0: unknown), was " + batchSize);
        }
        SameTableException.check(storeTable, config.indexTable());
    }

    /**
     * @throws SameTableException when {@code APPENDS_STORE_TABLE} names the index table
     * @throws IllegalArgumentException naming the variable that is missing or invalid and what it takes
     */
    public static LambdaSettings from(Function<String, String> env) {
        String table = env.apply(INDEX_TABLE);
        if (table == null || table.isBlank()) {
            throw new IllegalArgumentException(INDEX_TABLE + " is not set: set it to the name of the index table");
        }
        EpochLimits d = EpochLimits.DEFAULT;
        EpochLimits limits;
        try {
            limits = new EpochLimits((int) number(env, EPOCH_MAX_EVENTS, d.maxEvents()),
                    number(env, EPOCH_MAX_BYTES, d.maxBytes()), (int) number(env, EPOCH_MAX_STREAMS, d.maxStreams()));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("epoch limits from the environment are invalid: " + e.getMessage(), e);
        }
        IndexerConfig config = IndexerConfig.builder(table.trim())
                .partitions((int) number(env, PARTITIONS, 1))
                .limits(limits)
                .allowGaps(bool(env, ALLOW_GAPS))
                .storeTable(blankToNull(env.apply(STORE_TABLE)))
                .storePredatesFeed(bool(env, STORE_PREDATES_FEED))
                .tipLag(java.time.Duration.ofMillis(numberOrZero(env, TIP_LAG_MS, IndexerConfig.DEFAULT_TIP_LAG_MILLIS)))
                .build();
        return new LambdaSettings(blankToNull(env.apply(STORE_TABLE)), config,
                DynamoClients.Settings.of(blankToNull(env.apply(ENDPOINT)), blankToNull(env.apply(REGION))),
                (int) numberOrZero(env, BATCH_SIZE, 0));
    }

    /** Whether a batch of {@code records} records says more are waiting: it is as large as the mapping's batch size. */
    public boolean moreWaiting(int records) {
        return batchSize > 0 && records >= batchSize;
    }

    private static long numberOrZero(Function<String, String> env, String name, long dflt) {
        String v = blankToNull(env.apply(name));
        if (v == null) {
            return dflt;
        }
        try {
            long n = Long.parseLong(v.trim().replace("_", ""));
            if (n < 0 || n > Integer.MAX_VALUE) {
                throw new NumberFormatException("out of range");
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " is '" + v + "': give a whole number, 0 or more (default " + dflt + ")", e);
        }
    }

    private static long number(Function<String, String> env, String name, long dflt) {
        String v = blankToNull(env.apply(name));
        if (v == null) {
            return dflt;
        }
        try {
            long n = Long.parseLong(v.trim().replace("_", ""));
            if (n < 1 || n > Integer.MAX_VALUE && !name.equals(EPOCH_MAX_BYTES)) {
                throw new NumberFormatException("out of range");
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " is '" + v + "': give a positive whole number (default " + dflt + ")", e);
        }
    }

    private static boolean bool(Function<String, String> env, String name) {
        String v = blankToNull(env.apply(name));
        if (v == null) {
            return false;
        }
        return switch (v.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "true", "1", "yes" -> true;
            case "false", "0", "no" -> false;
            default -> throw new IllegalArgumentException(name + " is '" + v + "': give true or false");
        };
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }
}

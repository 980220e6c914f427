package io.appendsfeed.indexer.settings;

import io.appendsfeed.indexer.IndexerConfig;
import io.appendsfeed.model.DynamoClients;
import io.appendsfeed.model.feed.AppendsEpoch.EpochLimits;
import java.time.Duration;
import java.util.Locale;
import java.util.function.Function;

/**
 * The settings every indexer deployable reads alike, from variables (the CLI puts its options there).
 * {@code APPENDS_INDEX_TABLE} is required; the indexer README's "Using it" lists every variable and its default.
 */
public record IndexerSettings(IndexerConfig config, DynamoClients.Settings dynamo) {

    public static final String INDEX_TABLE = "APPENDS_INDEX_TABLE";
    public static final String STORE_TABLE = "APPENDS_STORE_TABLE";
    public static final String PARTITIONS = "APPENDS_PARTITIONS";
    public static final String EPOCH_MAX_EVENTS = "APPENDS_EPOCH_MAX_EVENTS";
    public static final String EPOCH_MAX_BYTES = "APPENDS_EPOCH_MAX_BYTES";
    public static final String EPOCH_MAX_STREAMS = "APPENDS_EPOCH_MAX_STREAMS";
    public static final String ALLOW_GAPS = "APPENDS_ALLOW_GAPS";
    public static final String STORE_PREDATES_FEED = "APPENDS_STORE_PREDATES_FEED";
    public static final String CONFLICT_BACKOFF_MS = "APPENDS_CONFLICT_BACKOFF_MS";
    public static final String ENDPOINT = "APPENDS_DYNAMODB_ENDPOINT";
    /** The Lambda mapping's batch size: a batch that large says more records wait (0 or unset: never assumed). */
    public static final String LAMBDA_BATCH_SIZE = "APPENDS_LAMBDA_BATCH_SIZE";
    public static final String REGION = "AWS_REGION";

    /** @throws IllegalArgumentException naming the variable that is missing or invalid and what it takes */
    public static IndexerSettings from(Function<String, String> env) {
        String table = value(env, INDEX_TABLE);
        if (table == null) {
            throw new IllegalArgumentException(INDEX_TABLE + " is not set: set it to the name of the index table");
        }
        EpochLimits d = EpochLimits.DEFAULT;
        EpochLimits limits;
        try {
            limits = new EpochLimits(number(env, EPOCH_MAX_EVENTS, d.maxEvents(), 1),
                    number(env, EPOCH_MAX_BYTES, d.maxBytes(), 1, Long.MAX_VALUE, "a positive whole number"),
                    number(env, EPOCH_MAX_STREAMS, d.maxStreams(), 1));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("epoch limits from the environment are invalid: " + e.getMessage(), e);
        }
        long maxBackoff = IndexerConfig.MAX_CONFLICT_BACKOFF.toMillis();
        IndexerConfig config = IndexerConfig.builder(table)
                .partitions(value(env, PARTITIONS) == null ? IndexerConfig.PARTITIONS_AS_RECORDED : number(env, PARTITIONS, 1, 1))
                .limits(limits)
                .allowGaps(bool(env, ALLOW_GAPS))
                .storeTable(value(env, STORE_TABLE))
                .storePredatesFeed(bool(env, STORE_PREDATES_FEED))
                .conflictBackoff(Duration.ofMillis(number(env, CONFLICT_BACKOFF_MS, IndexerConfig.DEFAULT_CONFLICT_BACKOFF_MILLIS,
                        0, maxBackoff, "a whole number of milliseconds from 0 to " + maxBackoff)))
                .build();
        return new IndexerSettings(config, DynamoClients.Settings.of(value(env, ENDPOINT), value(env, REGION)));
    }

    /** The store table whose stream is indexed; null when not set. */
    public String storeTable() {
        return config.storeTable();
    }

    /** A whole number from {@code min} to {@code Integer.MAX_VALUE}, or {@code dflt} when unset. */
    public static int number(Function<String, String> env, String name, int dflt, int min) {
        return (int) number(env, name, dflt, min, Integer.MAX_VALUE, "a whole number >= " + min);
    }

    private static long number(Function<String, String> env, String name, long dflt, long min, long max, String what) {
        String v = value(env, name);
        if (v == null) {
            return dflt;
        }
        try {
            long n = Long.parseLong(v.replace("_", ""));
            if (n < min || n > max) {
                throw new NumberFormatException("out of range");
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " is '" + v + "': give " + what + " (default " + dflt + ")", e);
        }
    }

    private static boolean bool(Function<String, String> env, String name) {
        String v = value(env, name);
        return switch (v == null ? "false" : v.toLowerCase(Locale.ROOT)) {
            case "true", "1", "yes" -> true;
            case "false", "0", "no" -> false;
            default -> throw new IllegalArgumentException(name + " is '" + v + "': give true or false");
        };
    }

    /** Required text. */
    public static String text(Function<String, String> env, String name, String what) {
        String v = value(env, name);
        if (v == null) {
            throw new IllegalArgumentException(name + " is not set: set it (or pass --" + name.replaceFirst("^APPENDS_", "")
                    .toLowerCase(Locale.ROOT).replace('_', '-') + " to feed) to " + what);
        }
        return v;
    }

    /** The variable's value, trimmed; null when unset or blank. */
    public static String value(Function<String, String> env, String name) {
        String v = env.apply(name);
        return v == null || v.isBlank() ? null : v.trim();
    }
}

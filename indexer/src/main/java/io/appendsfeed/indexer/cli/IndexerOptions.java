package io.appendsfeed.indexer.cli;

import io.appendsfeed.indexer.settings.IndexerSettings;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * The indexer's settings shared by backfill, the KCL worker and the poller; each falls back to the
 * variable every deployable reads ({@link IndexerSettings}), so one environment configures them all.
 */
final class IndexerOptions {

    @Option(names = "--partitions", paramLabel = "N", description = "feed partitions; must match the index once created (env APPENDS_PARTITIONS, default 1)")
    Integer partitions;

    @Option(names = "--epoch-max-events", paramLabel = "N", description = "epoch events before an epoch closes (env APPENDS_EPOCH_MAX_EVENTS, default 999999)")
    Integer epochMaxEvents;

    @Option(names = "--epoch-max-bytes", paramLabel = "N", description = "bytes of Ingested bodies per epoch (env APPENDS_EPOCH_MAX_BYTES, default 2097152)")
    Long epochMaxBytes;

    @Option(names = "--epoch-max-streams", paramLabel = "N", description = "distinct streams per epoch (env APPENDS_EPOCH_MAX_STREAMS, default 100000)")
    Integer epochMaxStreams;

    @Option(names = "--allow-gaps", description = "index past a gap with a WARN instead of stopping there (env APPENDS_ALLOW_GAPS)")
    boolean allowGaps;

    /** Puts what was given on the command line into {@code vars}, under the variables' names. */
    void into(Map<String, String> vars) {
        put(vars, IndexerSettings.PARTITIONS, partitions);
        put(vars, IndexerSettings.EPOCH_MAX_EVENTS, epochMaxEvents);
        put(vars, IndexerSettings.EPOCH_MAX_BYTES, epochMaxBytes);
        put(vars, IndexerSettings.EPOCH_MAX_STREAMS, epochMaxStreams);
        if (allowGaps) {
            vars.put(IndexerSettings.ALLOW_GAPS, "true");
        }
    }

    static void put(Map<String, String> vars, String name, Object value) {
        if (value != null) {
            vars.put(name, value.toString());
        }
    }
}

package io.appendsfeed.indexer.cli;

import io.appendsfeed.indexer.PartitionCountMismatchException;
import io.appendsfeed.indexer.settings.IndexerSettings;
import io.appendsfeed.indexer.cli.UsageException;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * The indexer's settings shared by backfill, the KCL worker and the poller; each falls back to the
 * variable every deployable reads ({@link IndexerSettings}), so one environment configures them all.
 */
final class IndexerOptions {

    @Option(names = "--partitions", paramLabel = "N", description = "feed partitions (env APPENDS_PARTITIONS; default: the count the index"
            + " records, 1 for a new index); another count than the index records is refused")
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
        if (partitions != null && partitions < 1) {
            throw new UsageException("--partitions " + partitions + ": give a whole number of at least 1, or leave it out for the count"
                    + " the index records (1 for a new index)");
        }
        put(vars, IndexerSettings.PARTITIONS, partitions);
        put(vars, IndexerSettings.EPOCH_MAX_EVENTS, epochMaxEvents);
        put(vars, IndexerSettings.EPOCH_MAX_BYTES, epochMaxBytes);
        put(vars, IndexerSettings.EPOCH_MAX_STREAMS, epochMaxStreams);
        if (allowGaps) {
            vars.put(IndexerSettings.ALLOW_GAPS, "true");
        }
    }

    /**
     * The one line for a partition count the index does not record: names the option (or the variable
     * it came from) and the recorded count, and says what to do.
     */
    String mismatch(PartitionCountMismatchException e) {
        String given = partitions != null ? "--partitions " + e.configured() : IndexerSettings.PARTITIONS + "=" + e.configured();
        return given + ": the index table '" + e.indexTable() + "' records " + e.recorded() + (e.recorded() == 1 ? " partition" : " partitions")
                + ", fixed when it was created; leave --partitions out to take the index's count, or give --partitions " + e.recorded();
    }

    static void put(Map<String, String> vars, String name, Object value) {
        if (value != null) {
            vars.put(name, value.toString());
        }
    }
}

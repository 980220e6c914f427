package io.appendsfeed.indexer.cli;

import io.appendsfeed.indexer.backfill.Backfill;
import io.appendsfeed.indexer.backfill.BackfillResult;
import io.appendsfeed.indexer.backfill.BackfillConfig;
import io.appendsfeed.indexer.backfill.ExportFiles;
import io.appendsfeed.indexer.settings.IndexerSettings;
import io.appendsfeed.model.DynamoClients;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;

@Command(name = "backfill", mixinStandardHelpOptions = true,
        description = {"Indexes a store table's events that are not on its stream (written before Streams was on, or older than 24 h):"
                + " from a parallel scan of the table, or from a DynamoDB export of it to S3 (--export), which costs no read capacity.",
                "Safe to run again and beside a live indexer: what the feed holds is skipped. Exit 0 when every stream went in,"
                        + " 1 when some were left out (named) or it failed, 2 for bad usage."})
final class BackfillCommand extends FeedCommand {

    @Mixin
    IndexerOptions indexer;

    @Option(names = "--export", paramLabel = "LOCATION",
            description = "read a full DynamoDB JSON export instead of scanning: its folder (holding manifest-summary.json),"
                    + " local or s3://bucket/prefix/AWSDynamoDB/<export id>/")
    String export;

    @Option(names = "--segments", paramLabel = "N", defaultValue = "" + BackfillConfig.DEFAULT_SEGMENTS,
            description = "parallel scan segments, or export files read at once (default ${DEFAULT-VALUE})")
    int segments;

    @Option(names = "--page-size", paramLabel = "N", defaultValue = "" + BackfillConfig.DEFAULT_PAGE_SIZE,
            description = "items per scan page (default ${DEFAULT-VALUE})")
    int pageSize;

    @Option(names = "--max-items-per-second", paramLabel = "N", defaultValue = "0",
            description = "cap on items scanned per second, to spare the table (default 0: none)")
    int maxItemsPerSecond;

    @Override
    public Integer call() {
        try (Connection c = connect(Connection.Use.READ, true)) {
            IndexerSettings settings = IndexerOptions.settings(() -> IndexerSettings.from(indexer.variables(c, ctx)));
            // BackfillConfig refuses values out of range, naming each with what it takes
            BackfillConfig config = IndexerOptions.settings(() -> BackfillConfig.of(c.storeTable()).withSegments(segments)
                    .withPageSize(pageSize).withMaxItemsPerSecond(maxItemsPerSecond));
            // progress goes to the log, an INFO line every 10 s
            Backfill backfill = new Backfill(c.dynamo(), settings.config(), config);
            BackfillResult r = export == null ? backfill.run() : backfill.run(exportFiles(c.client()));
            ctx.out().println("backfill: " + r);
            r.rejected().forEach((key, why) -> ctx.out().println("left out: the stream of item " + key + ": " + why));
            r.gaps().forEach(g -> ctx.out().println("left out: " + g.getMessage()));
            return r.complete() ? 0 : 1;
        }
    }

    private ExportFiles exportFiles(DynamoClients.Settings connection) {
        if (export.regionMatches(true, 0, "s3://", 0, 5)) {
            S3ClientBuilder s3 = S3Client.builder();
            connection.region().ifPresent(s3::region);
            connection.credentials().ifPresent(s3::credentialsProvider);
            try {
                return ExportFiles.s3(s3.build(), export);
            } catch (IllegalArgumentException e) {
                throw new CliException("--export " + e.getMessage(), e);
            }
        }
        Path folder = Path.of(export);
        if (!Files.isDirectory(folder)) {
            throw new CliException("--export '" + export + "' is not a folder: give the export's folder (holding manifest-summary.json),"
                    + " or s3://bucket/prefix/AWSDynamoDB/<export id>/");
        }
        return ExportFiles.folder(folder);
    }
}

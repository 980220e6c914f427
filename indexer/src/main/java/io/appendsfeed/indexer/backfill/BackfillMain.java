package io.appendsfeed.indexer.backfill;

import io.appendsfeed.indexer.backfill.internal.Arguments;
import io.appendsfeed.model.DynamoClients;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Runs a backfill from the command line:
 * {@code java -cp indexer.jar:... io.appendsfeed.indexer.backfill.BackfillMain --store-table Events --index-table EventsIndex}
 * (options as in {@link BackfillSettings}; environment variables work too). Draws a progress bar
 * on a terminal, logs a line every 10 s otherwise. Exits with 0 when every stream was indexed, 2
 * when some were left out (named in the log), 1 on failure; running it again is always safe.
 */
public final class BackfillMain {

    private BackfillMain() {}

    public static void main(String[] args) {
        BackfillSettings settings;
        try {
            settings = BackfillSettings.from(Arguments.over(args, System::getenv));
        } catch (IllegalArgumentException e) {
            System.err.println("backfill: " + e.getMessage());
            System.exit(1);
            return;
        }
        BackfillConfig config = System.console() == null ? settings.backfill()
                : settings.backfill().toBuilder().progress(new ProgressBar(System.err)).progressInterval(java.time.Duration.ofMillis(250)).build();
        try (DynamoDbClient dynamo = DynamoClients.dynamoDb(settings.dynamo().withMaxConnections(config.segments() + 8))) {
            BackfillResult r = new Backfill(dynamo, settings.indexer(), config).run();
            System.err.printf(java.util.Locale.ROOT, "backfill: %,d items, %,d streams, %,d events ingested, %,d duplicates dropped, %,d streams read again,"
                            + " %d left out, in %ds (%,.0f items/s)%n", r.itemsScanned(), r.streams(), r.eventsIngested(),
                    r.duplicatesDropped(), r.streamsReadAgain(), r.rejected().size() + r.gaps().size(), r.elapsed().toSeconds(),
                    r.itemsPerSecond());
            System.exit(r.complete() ? 0 : 2);
        } catch (RuntimeException e) {
            System.err.println("backfill failed: " + e.getMessage());
            e.printStackTrace(System.err);
            System.exit(1);
        }
    }
}

package io.appendsfeed.indexer.cli;

import io.appendsfeed.indexer.Indexer;
import io.appendsfeed.indexer.poller.PollerConfig;
import io.appendsfeed.indexer.poller.StreamsPoller;
import io.appendsfeed.indexer.settings.IndexerSettings;
import io.appendsfeed.model.DynamoClients;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

@Command(name = "poll", mixinStandardHelpOptions = true,
        description = {"Indexes a store table's stream with the built-in poller of the Streams API until stopped (Ctrl-C, SIGTERM):"
                + " one instance per store table, for DynamoDB Local and small deployments. Use the Lambda or `feed kcl` at scale."})
final class PollCommand extends FeedCommand {

    @Mixin
    IndexerOptions indexer;

    @Option(names = "--on-rejected", paramLabel = "ACTION", defaultValue = "STOP_SHARD",
            description = "a record the indexer cannot read: ${COMPLETION-CANDIDATES} (default STOP_SHARD)")
    PollerConfig.OnRejected onRejected;

    @Override
    public Integer call() throws InterruptedException {
        try (Connection c = connect(Connection.Use.READ, true)) {
            IndexerSettings settings = IndexerOptions.settings(() -> IndexerSettings.from(indexer.variables(c, ctx)));
            PollerConfig config = IndexerOptions.settings(() -> PollerConfig.of(c.storeTable()).withOnRejected(onRejected));
            CountDownLatch stopped = new CountDownLatch(1);
            Indexer started = Indexer.start(c.dynamo(), settings.config().toBuilder().storeTable(c.storeTable()).build());
            try (DynamoDbStreamsClient streams = DynamoClients.streams(c.client());
                 StreamsPoller poller = new StreamsPoller(c.dynamo(), streams, started, config)) {
                Thread hook = new Thread(() -> {
                    poller.close(); // after the batch in hand, its position saved
                    stopped.countDown();
                }, "appendsfeed-poll-shutdown");
                Runtime.getRuntime().addShutdownHook(hook);
                poller.start();
                ctx.err().println("feed poll: indexing the stream of " + c.storeTable() + " into " + c.indexTable() + " at " + c.where()
                        + "; Ctrl-C stops after the batch in hand");
                ctx.err().flush();
                stopped.await();
            }
            return 0;
        }
    }
}

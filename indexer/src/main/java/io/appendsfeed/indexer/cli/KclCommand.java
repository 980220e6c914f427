package io.appendsfeed.indexer.cli;

import io.appendsfeed.indexer.Indexer;
import io.appendsfeed.indexer.kcl.KclClients;
import io.appendsfeed.indexer.kcl.KclConfig;
import io.appendsfeed.indexer.kcl.KclIndexer;
import io.appendsfeed.indexer.kcl.KclSettings;
import io.appendsfeed.indexer.settings.MetricsSettings;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "kcl", mixinStandardHelpOptions = true,
        description = {"Runs a KCL worker indexing a store table's stream until stopped (SIGTERM, Ctrl-C: a graceful shutdown)."
                + " Workers with the same --application share the shards through a lease table."
                + " Each batch's figures go to stdout as a CloudWatch Embedded Metric Format line per batch and shard"
                + " (ship stdout to CloudWatch Logs and they become metrics).",
                "Metrics are set from the environment: APPENDS_METRICS (on|off), APPENDS_METRICS_NAMESPACE, APPENDS_SERVICE_NAME,"
                        + " or Powertools' variables."})
final class KclCommand extends FeedCommand {

    @Mixin
    IndexerOptions indexer;

    @Option(names = "--stream-arn", paramLabel = "ARN", description = "the store table's stream (env APPENDS_STREAM_ARN; default: its LatestStreamArn)")
    String streamArn;

    @Option(names = "--application", paramLabel = "NAME", description = "KCL application (env APPENDS_APPLICATION; default appendsfeed-<store table>)")
    String application;

    @Option(names = "--lease-table", paramLabel = "TABLE", description = "KCL lease table (env APPENDS_LEASE_TABLE; default: the application)")
    String leaseTable;

    @Option(names = "--worker-id", paramLabel = "ID", description = "this worker's name in the lease table (env APPENDS_WORKER_ID; default: host and a random suffix)")
    String workerId;

    @Option(names = "--on-rejected", paramLabel = "ACTION", description = "a record the indexer cannot read: ${COMPLETION-CANDIDATES} (default STOP_SHARD)")
    KclConfig.OnRejected onRejected;

    @Override
    public Integer call() throws InterruptedException {
        try {
            Class.forName("software.amazon.kinesis.coordinator.Scheduler", false, KclCommand.class.getClassLoader());
        } catch (ClassNotFoundException absent) { // the default CLI jar leaves KCL out, the -kcl jar has it
            throw new CliException("this jar leaves KCL out: run feed kcl from appendsfeed-indexer-<version>-kcl.jar"
                    + " (java -jar appendsfeed-indexer-<version>-kcl.jar kcl ...); locally, without KCL, use feed poll", absent);
        }
        try (Connection c = connect(Connection.Use.READ, true)) {
            Function<String, String> variables = indexer.variables(c, ctx, KclSettings.STREAM_ARN, streamArn, KclSettings.APPLICATION,
                    application, KclSettings.LEASE_TABLE, leaseTable, KclSettings.WORKER_ID, workerId, KclSettings.ON_REJECTED, onRejected);
            KclSettings settings = IndexerOptions.settings(() -> KclSettings.from(variables));
            MetricsSettings metricsSettings = IndexerOptions.settings(() -> MetricsSettings.from(variables));
            // refused before anything is created: on DynamoDB Local the worker would log "Invalid DynamoDB stream ARN format" forever
            String arn = IndexerOptions.settings(() -> KclIndexer.requireAwsStreamArn(settings.streamArn() != null ? settings.streamArn()
                    : KclIndexer.streamArn(c.dynamo(), settings.storeTable())));
            KclConfig config = IndexerOptions.settings(() -> settings.config(arn)); // once: its default worker id is random
            KclClients clients = KclClients.of(c.client());
            KclIndexer worker;
            try {
                Indexer started = Indexer.start(clients.dynamo(),
                        settings.indexer().toBuilder().storeTable(settings.storeTable()).metrics(metricsSettings.metrics()).build());
                worker = KclIndexer.start(clients, started, config);
            } catch (RuntimeException e) {
                clients.close();
                throw e;
            }
            CountDownLatch stopped = new CountDownLatch(1);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                worker.close();
                clients.close();
                stopped.countDown();
            }, "appendsfeed-kcl-shutdown"));
            ctx.err().println("feed kcl: worker " + config.workerId() + " of " + config.applicationName() + " indexing " + arn
                    + " into " + c.indexTable() + "; SIGTERM or Ctrl-C stops it gracefully");
            ctx.err().flush();
            while (worker.isRunning()) {
                if (stopped.await(1, TimeUnit.SECONDS)) {
                    return 0;
                }
            }
            ctx.err().println("feed kcl: the KCL scheduler stopped; see the log");
            return 1;
        }
    }
}

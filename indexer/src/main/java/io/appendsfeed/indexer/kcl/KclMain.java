package io.appendsfeed.indexer.kcl;

import io.appendsfeed.indexer.Indexer;
import io.appendsfeed.indexer.backfill.internal.Arguments;
import io.appendsfeed.model.metrics.EmfMetrics;
import java.util.concurrent.CountDownLatch;

/**
 * Runs the KCL worker until the process is stopped (SIGTERM, Ctrl-C: a graceful shutdown):
 * {@code java -cp indexer.jar:... io.appendsfeed.indexer.kcl.KclMain --store-table Events --index-table EventsIndex}
 * (options as in {@link KclSettings}; environment variables work too). The classpath must hold
 * KCL and the adapter, which the indexer declares as optional dependencies. Each batch's figures
 * go to stdout as a CloudWatch Embedded Metric Format line per batch and shard (ship stdout to
 * CloudWatch Logs, e.g. with ECS's awslogs driver or the CloudWatch agent, and they become metrics).
 */
public final class KclMain {

    private KclMain() {}

    public static void main(String[] args) throws InterruptedException {
        KclSettings settings;
        try {
            settings = KclSettings.from(Arguments.over(args, System::getenv));
        } catch (IllegalArgumentException e) {
            System.err.println("kcl indexer: " + e.getMessage());
            System.exit(1);
            return;
        }
        KclClients clients = KclClients.of(settings.dynamo());
        String arn = settings.streamArn() != null ? settings.streamArn() : KclIndexer.streamArn(clients.dynamo(), settings.storeTable());
        KclIndexer worker = KclIndexer.start(clients, Indexer.start(clients.dynamo(),
                settings.indexer().toBuilder().metrics(new EmfMetrics()).build()), settings.config(arn));
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            worker.close();
            clients.close();
            stopped.countDown();
        }, "appendsfeed-kcl-shutdown"));
        while (worker.isRunning()) {
            if (stopped.await(1, java.util.concurrent.TimeUnit.SECONDS)) {
                return;
            }
        }
        System.err.println("kcl indexer: the KCL scheduler stopped; see the log");
        System.exit(1);
    }
}

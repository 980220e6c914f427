package io.appendsfeed.indexer.notifier;

import io.appendsfeed.model.testing.LocalDynamo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsResponse;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;

/**
 * Test support: what Lambda's event source mapping does for a function on a DynamoDB stream, on
 * DynamoDB Local: polls each shard (every {@code pollInterval}, as Lambda polls four times a second),
 * hands the function up to {@code batchSize} records rendered as the Lambda event, one batch of a shard
 * at a time, and retries a failed batch. Single-threaded; the test's table does not roll shards over.
 */
final class LocalStreamMapping implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LocalStreamMapping.class);

    private final LocalDynamo local;
    private final String table;
    private final Consumer<byte[]> function;
    private final Duration pollInterval;
    private final int batchSize;
    private final Map<String, String> iterators = new HashMap<>();
    private final AtomicBoolean stop = new AtomicBoolean();
    private final Thread thread;
    final AtomicInteger invocations = new AtomicInteger();
    final AtomicInteger records = new AtomicInteger();
    private volatile boolean idle;

    LocalStreamMapping(LocalDynamo local, String table, Duration pollInterval, int batchSize, Consumer<byte[]> function) {
        this.local = local;
        this.table = table;
        this.function = function;
        this.pollInterval = pollInterval;
        this.batchSize = batchSize;
        this.thread = new Thread(this::run, "stream-mapping-" + table);
        thread.setDaemon(true);
        thread.start();
    }

    /** The last poll found nothing new on any shard. */
    boolean idle() {
        return idle;
    }

    private void run() {
        String arn = IndexStreamEvents.arn(local, table);
        while (!stop.get()) {
            boolean any = false;
            try {
                for (Shard shard : local.streams().describeStream(b -> b.streamArn(arn)).streamDescription().shards()) {
                    any |= poll(arn, shard.shardId());
                }
            } catch (RuntimeException e) {
                LOG.warn("stream mapping: {}, retrying", e.toString());
            }
            idle = !any;
            if (!any) {
                try {
                    Thread.sleep(pollInterval.toMillis()); // Lambda's poller waits between reads of a quiet shard
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    private boolean poll(String arn, String shardId) {
        String it = iterators.computeIfAbsent(shardId, s -> local.streams().getShardIterator(b -> b.streamArn(arn).shardId(s)
                .shardIteratorType(ShardIteratorType.TRIM_HORIZON)).shardIterator());
        if (it == null) {
            return false;
        }
        GetRecordsResponse r = local.streams().getRecords(b -> b.shardIterator(it).limit(batchSize));
        List<Record> got = new ArrayList<>(r.records());
        if (!got.isEmpty()) {
            byte[] event = IndexStreamEvents.event(local, table, got);
            while (!stop.get()) {
                try {
                    invocations.incrementAndGet();
                    function.accept(event);
                    break;
                } catch (RuntimeException e) {
                    LOG.warn("stream mapping: the function failed ({}), retrying the batch", e.toString());
                }
            }
            records.addAndGet(got.size());
        }
        iterators.put(shardId, r.nextShardIterator());
        return !got.isEmpty();
    }

    @Override
    public void close() throws InterruptedException {
        stop.set(true);
        thread.interrupt();
        thread.join(10_000);
    }
}

package io.appendsfeed.indexer.kcl.internal;

import com.amazonaws.services.dynamodbv2.streamsadapter.adapter.DynamoDBStreamsClientRecord;
import com.amazonaws.services.dynamodbv2.streamsadapter.model.DynamoDBStreamsProcessRecordsInput;
import com.amazonaws.services.dynamodbv2.streamsadapter.processor.DynamoDBStreamsShardRecordProcessor;
import io.appendsfeed.indexer.BatchOutcome;
import io.appendsfeed.indexer.ChangeRecord;
import io.appendsfeed.indexer.FeedGapException;
import io.appendsfeed.indexer.Indexer;
import io.appendsfeed.indexer.BatchOutcome.RejectedRecord;
import io.appendsfeed.indexer.internal.RejectedLog;
import io.appendsfeed.indexer.kcl.KclConfig;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.retries.api.BackoffStrategy;
import software.amazon.kinesis.exceptions.InvalidStateException;
import software.amazon.kinesis.exceptions.KinesisClientLibDependencyException;
import software.amazon.kinesis.exceptions.ShutdownException;
import software.amazon.kinesis.exceptions.ThrottlingException;
import software.amazon.kinesis.lifecycle.events.InitializationInput;
import software.amazon.kinesis.lifecycle.events.LeaseLostInput;
import software.amazon.kinesis.lifecycle.events.ShardEndedInput;
import software.amazon.kinesis.lifecycle.events.ShutdownRequestedInput;
import software.amazon.kinesis.processor.RecordProcessorCheckpointer;

/**
 * One shard's processor: hands the adapter's records to the indexer and checkpoints up to what it durably
 * ingested. KCL never redelivers a batch (returning or throwing moves the shard on), so a batch not wholly in
 * is retried here until it is in, the worker closes or the lease is lost; then, and after a rejected record
 * under {@link KclConfig.OnRejected#STOP_SHARD}, nothing more is checkpointed, and the next owner of the
 * lease resumes at the first record not ingested. Used by one KCL thread at a time.
 */
public final class IndexingProcessor implements DynamoDBStreamsShardRecordProcessor {

    /**
     * What a worker's record processors share.
     *
     * @param closing counted down when the worker closes: processors waiting to retry give their batch up
     */
    public record Worker(Indexer indexer, KclConfig config, RejectedLog rejectedLog, String storeTable, CountDownLatch closing,
                         AtomicLong recordsIngested) {

        /** Waits up to {@code d}; @return false when the worker is closing (or the thread interrupted) */
        boolean pause(Duration d) {
            try {
                return !closing.await(Math.max(1, d.toMillis()), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
    }

    private static final Logger log = LoggerFactory.getLogger(IndexingProcessor.class);

    private final Worker worker;
    private String shardId = "?";
    private String checkpointed;
    private String stopped; // why this processor takes nothing more from the shard, or null

    public IndexingProcessor(Worker worker) {
        this.worker = worker;
    }

    @Override
    public void initialize(InitializationInput input) {
        shardId = input.shardId();
        log.info("shard {}: processing from {}", shardId, input.extendedSequenceNumber());
    }

    @Override
    public void processRecords(DynamoDBStreamsProcessRecordsInput input) {
        List<ChangeRecord> rest = translate(input.records());
        BackoffStrategy backoff = BackoffStrategy.exponentialDelayHalfJitter(worker.config().retryBackoff(), KclConfig.MAX_RETRY_BACKOFF);
        int attempts = 0;
        while (stopped == null && !rest.isEmpty()) {
            BatchOutcome o = worker.indexer().ingest(rest, shardId);
            int k = o.ingested(rest, ChangeRecord::sequenceNumber);
            if (k > 0) {
                worker.recordsIngested().addAndGet(k);
                checkpoint(input.checkpointer(), rest.get(k - 1).sequenceNumber());
            }
            rest = rest.subList(k, rest.size());
            if (rest.isEmpty()) {
                return;
            }
            if (o.stoppedAtRejected() != null) {
                if (onRejected(o.stoppedAtRejected(), input.checkpointer())) {
                    rest = rest.subList(1, rest.size());
                }
            } else {
                retryLater(o, backoff.computeDelay(++attempts));
            }
        }
        if (!rest.isEmpty()) {
            log.debug("shard {}: {} records not processed: {}", shardId, rest.size(), stopped);
        }
    }

    /** @return true when the record was recorded and checkpointed, so the batch goes on after it */
    private boolean onRejected(RejectedRecord r, RecordProcessorCheckpointer checkpointer) {
        if (worker.config().onRejected() == KclConfig.OnRejected.STOP_SHARD) {
            log.error("shard {}: {}; processing stops on this shard (nothing after it is checkpointed) until the worker restarts", shardId, r);
            stop("stopped at rejected " + r);
            return false;
        }
        try {
            worker.rejectedLog().record(worker.storeTable(), shardId, r);
        } catch (RuntimeException e) {
            log.warn("shard {}: could not record {}, retrying: {}", shardId, r, e.toString());
            if (!worker.pause(worker.config().retryBackoff())) {
                stop("worker closing");
            }
            return false;
        }
        log.error("shard {}: {}; recorded in {} and skipped", shardId, r, RejectedLog.STREAM);
        checkpoint(checkpointer, r.sequenceNumber());
        return true;
    }

    private void retryLater(BatchOutcome o, Duration backoff) {
        if (o.errors().stream().anyMatch(e -> e instanceof FeedGapException)) {
            log.error("shard {}: not ingested from {}: {}; retrying in {} (a backfill of the stream fills the gap)",
                    shardId, o.firstNotIngested(), o.errors(), backoff);
        } else {
            log.warn("shard {}: not ingested from {}, retrying in {}: {}", shardId, o.firstNotIngested(), backoff, o.errors());
        }
        if (!worker.pause(backoff)) {
            stop("worker closing with records from " + o.firstNotIngested() + " not ingested");
        }
    }

    private void stop(String why) {
        if (stopped == null) {
            stopped = why;
            log.info("shard {}: {}; the next owner of the lease resumes after checkpoint {}", shardId, why, checkpointed);
        }
    }

    private void checkpoint(RecordProcessorCheckpointer checkpointer, String sequenceNumber) {
        try {
            checkpointer.checkpoint(sequenceNumber);
            checkpointed = sequenceNumber;
        } catch (ShutdownException e) {
            stop("lease lost (" + e.getMessage() + ")");
        } catch (ThrottlingException | KinesisClientLibDependencyException e) {
            // the next batch's checkpoint covers this one; a redelivery after a crash is dropped by the indexer
            log.warn("shard {}: checkpoint at {} failed, the next one covers it: {}", shardId, sequenceNumber, e.toString());
        } catch (InvalidStateException e) {
            log.error("shard {}: checkpoint at {} failed: {}", shardId, sequenceNumber, e.toString(), e);
        }
    }

    /** The adapter's records one for one; one without its DynamoDB part is kept empty, for the indexer to reject. */
    private static List<ChangeRecord> translate(List<DynamoDBStreamsClientRecord> delivered) {
        return delivered.stream().map(r -> r.getRecord() != null && r.getRecord().dynamodb() != null ? ChangeRecord.from(r.getRecord())
                : new ChangeRecord(String.valueOf(r.sequenceNumber()), null, null, Map.of(), null, null)).toList();
    }

    @Override
    public void leaseLost(LeaseLostInput input) {
        log.info("shard {}: lease lost; the new owner resumes after checkpoint {}", shardId, checkpointed);
    }

    @Override
    public void shardEnded(ShardEndedInput input) {
        if (stopped != null) {
            // KCL keeps the shard (and its children) until its end is checkpointed: right, since records were not ingested
            log.error("shard {}: ended, but its end is not checkpointed: {}", shardId, stopped);
            return;
        }
        try {
            input.checkpointer().checkpoint();
            log.info("shard {}: ended and checkpointed; its children follow", shardId);
        } catch (ShutdownException | InvalidStateException e) {
            log.warn("shard {}: could not checkpoint its end (KCL retries): {}", shardId, e.toString());
        }
    }

    /** Every ingested batch was checkpointed as it went; one whose checkpoint failed is redelivered, and its duplicates dropped. */
    @Override
    public void shutdownRequested(ShutdownRequestedInput input) {
        log.info("shard {}: shutting down at checkpoint {}", shardId, checkpointed);
    }
}

package io.appendsfeed.indexer.kcl.internal;

import com.amazonaws.services.dynamodbv2.streamsadapter.adapter.DynamoDBStreamsClientRecord;
import com.amazonaws.services.dynamodbv2.streamsadapter.model.DynamoDBStreamsProcessRecordsInput;
import com.amazonaws.services.dynamodbv2.streamsadapter.processor.DynamoDBStreamsShardRecordProcessor;
import io.appendsfeed.indexer.BatchOutcome;
import io.appendsfeed.indexer.ChangeRecord;
import io.appendsfeed.indexer.FeedGapException;
import io.appendsfeed.indexer.Indexer;
import io.appendsfeed.indexer.RejectedRecord;
import io.appendsfeed.indexer.internal.RejectedLog;
import io.appendsfeed.indexer.kcl.KclConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
 * One shard's processor: translates the adapter's records, hands them to the indexer and
 * checkpoints only up to what the indexer durably ingested. KCL never redelivers a batch
 * ({@code processRecords} returning, or throwing, moves the shard on), so a batch not fully
 * ingested is retried here, with backoff, until it is in, the worker closes or the lease is lost;
 * in the last two cases, and after a rejected record under {@link KclConfig.OnRejected#STOP_SHARD},
 * the processor checkpoints nothing more, so the next owner of the lease resumes at the first
 * record not ingested. Used by one KCL thread at a time.
 */
public final class IndexingProcessor implements DynamoDBStreamsShardRecordProcessor {

    /** What a worker's record processors share: the indexer, the settings, and whether the worker is stopping. */
    public static final class Worker {
        private final Indexer indexer;
        private final KclConfig config;
        private final RejectedLog rejectedLog;
        private final String storeTable;
        private final Object lock = new Object();
        private final AtomicLong recordsIngested = new AtomicLong();
        private volatile boolean closing;

        public Worker(Indexer indexer, KclConfig config, RejectedLog rejectedLog, String storeTable) {
            this.indexer = indexer;
            this.config = config;
            this.rejectedLog = rejectedLog;
            this.storeTable = storeTable;
        }

        /** Records the worker's processors durably ingested. */
        public long recordsIngested() {
            return recordsIngested.get();
        }

        /** Wakes every processor waiting to retry: they give up their batch without checkpointing it. */
        public void close() {
            synchronized (lock) {
                closing = true;
                lock.notifyAll();
            }
        }

        /** Waits up to {@code d}; @return false when the worker is closing (or the thread interrupted) */
        boolean pause(Duration d) {
            synchronized (lock) {
                if (!closing) {
                    try {
                        lock.wait(Math.max(1, d.toMillis()));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return false;
                    }
                }
                return !closing;
            }
        }
    }

    private static final Logger log = LoggerFactory.getLogger(IndexingProcessor.class);

    private final Worker worker;
    private String shardId = "?";
    private String ingested;      // last sequence number durably ingested
    private String checkpointed;  // last sequence number checkpointed
    private String stopped;       // why this processor takes nothing more from the shard, or null

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
        if (stopped != null) {
            log.debug("shard {}: {} records not processed: {}", shardId, input.records().size(), stopped);
            return;
        }
        List<ChangeRecord> rest = translate(input.records());
        // the AWS SDK's policy, appendsfeed's one retry policy: doubling from retryBackoff up to MAX_RETRY_BACKOFF
        BackoffStrategy policy = BackoffStrategy.exponentialDelayHalfJitter(worker.config.retryBackoff(), KclConfig.MAX_RETRY_BACKOFF);
        int attempts = 0;
        while (stopped == null) {
            if (!rest.isEmpty()) {
                BatchOutcome o = worker.indexer.ingest(rest, shardId);
                int k = o.complete() ? rest.size() : indexOf(rest, o.firstNotIngested());
                if (k > 0) {
                    ingested = rest.get(k - 1).sequenceNumber();
                    worker.recordsIngested.addAndGet(k);
                    checkpoint(input.checkpointer(), ingested);
                }
                rest = rest.subList(k, rest.size());
                if (!rest.isEmpty()) {
                    if (o.rejected() != null && o.rejected().sequenceNumber().equals(rest.get(0).sequenceNumber())) {
                        if (onRejected(o.rejected(), input.checkpointer())) {
                            rest = rest.subList(1, rest.size());
                        }
                        continue;
                    }
                    retryLater(o, policy.computeDelay(++attempts));
                    continue;
                }
            }
            return;
        }
    }

    /** @return true when the record was recorded and checkpointed, so the batch goes on after it */
    private boolean onRejected(RejectedRecord r, RecordProcessorCheckpointer checkpointer) {
        if (worker.config.onRejected() == KclConfig.OnRejected.STOP_SHARD) {
            log.error("shard {}: {}; processing stops on this shard (nothing after it is checkpointed) until the worker restarts", shardId, r);
            stop("stopped at rejected " + r);
            return false;
        }
        try {
            worker.rejectedLog.record(worker.storeTable, shardId, r);
        } catch (RuntimeException e) {
            log.warn("shard {}: could not record {}, retrying: {}", shardId, r, e.toString());
            if (!worker.pause(worker.config.retryBackoff())) {
                stop("worker closing");
            }
            return false;
        }
        log.error("shard {}: {}; recorded in $AppendsRejected-0 and skipped", shardId, r);
        ingested = r.sequenceNumber();
        checkpoint(checkpointer, ingested);
        return true;
    }

    private void retryLater(BatchOutcome o, Duration backoff) {
        boolean gap = o.errors().stream().anyMatch(e -> e instanceof FeedGapException);
        if (gap) {
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

    /**
     * The adapter's records (each wrapping the DynamoDB Streams record it was made from) one for one; a record
     * without its DynamoDB part becomes an empty record under its sequence number, which the indexer rejects
     * by name: never skipped.
     */
    private static List<ChangeRecord> translate(List<DynamoDBStreamsClientRecord> delivered) {
        List<ChangeRecord> out = new ArrayList<>(delivered.size());
        for (DynamoDBStreamsClientRecord r : delivered) {
            var record = r.getRecord();
            out.add(record != null && record.dynamodb() != null ? ChangeRecord.from(record)
                    : new ChangeRecord(String.valueOf(r.sequenceNumber()), null, null, Map.of(), null, null));
        }
        return out;
    }

    private static int indexOf(List<ChangeRecord> records, String sequenceNumber) {
        for (int k = 0; k < records.size(); k++) {
            if (records.get(k).sequenceNumber().equals(sequenceNumber)) {
                return k;
            }
        }
        throw new IllegalStateException("the indexer reported " + sequenceNumber + " as not ingested, which is not in the batch");
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

    @Override
    public void shutdownRequested(ShutdownRequestedInput input) {
        if (ingested != null && !ingested.equals(checkpointed)) {
            try {
                input.checkpointer().checkpoint(ingested);
                checkpointed = ingested;
            } catch (ShutdownException | InvalidStateException e) {
                log.warn("shard {}: final checkpoint at {} failed; the next owner redelivers from {}: {}",
                        shardId, ingested, checkpointed, e.toString());
            }
        }
        log.info("shard {}: shutting down at checkpoint {}", shardId, checkpointed);
    }
}

package io.appendsfeed.indexer.notifier;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.appendsfeed.reader.lambda.ReactorHandler;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * Test support: what Lambda's event source mapping does for a function on an SQS queue, against a
 * local SQS: {@code concurrency} pollers, each receiving up to 10 messages (waiting up to the batching
 * window to fill a batch), invoking the function with the SQS event as Lambda renders it, deleting
 * what succeeded and leaving the batch item failures to come back after the visibility timeout.
 */
final class LocalQueueMapping implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LocalQueueMapping.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final SqsClient sqs;
    private final String queueUrl;
    private final ReactorHandler function;
    private final Duration timeout;
    private final Duration batchingWindow;
    private final AtomicBoolean stop = new AtomicBoolean();
    private final List<Thread> threads = new ArrayList<>();
    private final AtomicInteger running = new AtomicInteger();
    final AtomicInteger invocations = new AtomicInteger();
    final AtomicInteger messages = new AtomicInteger();
    final AtomicInteger failures = new AtomicInteger();

    LocalQueueMapping(SqsClient sqs, String queueUrl, ReactorHandler function, int concurrency, Duration batchingWindow, Duration timeout) {
        this.sqs = sqs;
        this.queueUrl = queueUrl;
        this.function = function;
        this.timeout = timeout;
        this.batchingWindow = batchingWindow;
        for (int k = 0; k < concurrency; k++) {
            Thread t = new Thread(this::run, "queue-mapping-" + k);
            t.setDaemon(true);
            threads.add(t);
            t.start();
        }
    }

    /** No message visible or in flight, and no invocation running. */
    boolean drained() {
        var a = sqs.getQueueAttributes(b -> b.queueUrl(queueUrl).attributeNames(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES,
                QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE)).attributes();
        return running.get() == 0 && "0".equals(a.get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES))
                && "0".equals(a.get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE));
    }

    private void run() {
        while (!stop.get()) {
            try {
                List<Message> batch = receive();
                if (!batch.isEmpty()) {
                    invoke(batch);
                }
            } catch (RuntimeException e) {
                if (!stop.get()) {
                    LOG.warn("queue mapping: {}", e.toString());
                }
            }
        }
    }

    private List<Message> receive() {
        List<Message> batch = new ArrayList<>(sqs.receiveMessage(b -> b.queueUrl(queueUrl).maxNumberOfMessages(10)
                .messageAttributeNames("All").waitTimeSeconds(1)).messages());
        long windowEnds = System.nanoTime() + batchingWindow.toNanos();
        while (!batch.isEmpty() && batch.size() < 10 && System.nanoTime() - windowEnds < 0) {
            int room = 10 - batch.size();
            List<Message> more = sqs.receiveMessage(b -> b.queueUrl(queueUrl).maxNumberOfMessages(room).messageAttributeNames("All")
                    .waitTimeSeconds(0)).messages();
            batch.addAll(more);
            if (more.isEmpty()) {
                try {
                    Thread.sleep(20); // Lambda's poller also waits out the window before invoking with a part batch
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        return batch;
    }

    private void invoke(List<Message> batch) {
        running.incrementAndGet();
        try {
            invocations.incrementAndGet();
            messages.addAndGet(batch.size());
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            Set<String> failed = new HashSet<>();
            try {
                function.handleRequest(new ByteArrayInputStream(event(batch).getBytes(StandardCharsets.UTF_8)), out, new LambdaContext(timeout));
                for (JsonNode f : JSON.readTree(out.toByteArray()).path("batchItemFailures")) {
                    failed.add(f.path("itemIdentifier").asText());
                }
            } catch (Exception e) {
                LOG.warn("queue mapping: the invocation failed ({}); the whole batch comes back", e.toString());
                batch.forEach(m -> failed.add(m.messageId()));
            }
            failures.addAndGet(failed.size());
            for (Message m : batch) {
                if (!failed.contains(m.messageId())) {
                    sqs.deleteMessage(b -> b.queueUrl(queueUrl).receiptHandle(m.receiptHandle()));
                }
            }
        } finally {
            running.decrementAndGet();
        }
    }

    /** The SQS event Lambda hands a function. */
    static String event(List<Message> batch) {
        ObjectNode event = JSON.createObjectNode();
        ArrayNode records = event.putArray("Records");
        for (Message m : batch) {
            ObjectNode r = records.addObject();
            r.put("messageId", m.messageId());
            r.put("receiptHandle", m.receiptHandle());
            r.put("body", m.body());
            r.putObject("attributes").put("ApproximateReceiveCount", "1");
            ObjectNode attrs = r.putObject("messageAttributes");
            m.messageAttributes().forEach((k, v) -> {
                ObjectNode a = attrs.putObject(k);
                a.put("stringValue", v.stringValue());
                a.putArray("stringListValues");
                a.putArray("binaryListValues");
                a.put("dataType", v.dataType());
            });
            r.put("md5OfBody", m.md5OfBody());
            r.put("eventSource", "aws:sqs");
            r.put("eventSourceARN", "arn:aws:sqs:us-east-1:123456789012:reactor");
            r.put("awsRegion", "us-east-1");
        }
        return event.toString();
    }

    @Override
    public void close() throws InterruptedException {
        stop.set(true);
        for (Thread t : threads) {
            t.join(15_000);
        }
    }
}

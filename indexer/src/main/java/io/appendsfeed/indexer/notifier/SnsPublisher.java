package io.appendsfeed.indexer.notifier;

import io.appendsfeed.model.DynamoClients;
import io.appendsfeed.model.feed.FeedNotification;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sns.SnsClientBuilder;
import software.amazon.awssdk.services.sns.model.BatchResultErrorEntry;
import software.amazon.awssdk.services.sns.model.MessageAttributeValue;
import software.amazon.awssdk.services.sns.model.PublishBatchRequestEntry;
import software.amazon.awssdk.services.sns.model.PublishBatchResponse;

/**
 * Publishes notifications to an SNS topic, {@value #MAX_BATCH_ENTRIES} per {@code PublishBatch}: the body is
 * {@link FeedNotification#toJson()}, with the {@code Partition} and {@code Position} attributes (strings), by
 * which a subscription can filter partitions. Each reactor subscribes its own queue or function to the topic.
 */
public final class SnsPublisher implements NotifierHandler.Publisher {

    /** SNS's limit of entries per {@code PublishBatch}. */
    public static final int MAX_BATCH_ENTRIES = 10;

    /** SNS refused some notifications. */
    public static final class PublishFailedException extends RuntimeException {
        private final String destination;
        private final List<String> failures;

        /** @param failures one line per refused message: the entry, the error code and message */
        public PublishFailedException(String destination, List<String> failures) {
            super(failures.size() + " notification(s) refused by " + destination + ": " + String.join("; ", failures));
            this.destination = destination;
            this.failures = List.copyOf(failures);
        }

        public String destination() { return destination; }
        public List<String> failures() { return failures; }
    }

    private final SnsClient sns;
    private final String topicArn;

    /** The caller owns {@code sns}. */
    public SnsPublisher(SnsClient sns, String topicArn) {
        this.sns = Objects.requireNonNull(sns, "sns");
        this.topicArn = Objects.requireNonNull(topicArn, "topicArn");
    }

    /** An SNS client built as appendsfeed builds its DynamoDB clients. */
    public static SnsClient client(DynamoClients.Settings settings) {
        SnsClientBuilder b = SnsClient.builder()
                .httpClientBuilder(ApacheHttpClient.builder().maxConnections(settings.maxConnections()))
                .overrideConfiguration(c -> c.apiCallAttemptTimeout(Duration.ofSeconds(5)).apiCallTimeout(Duration.ofSeconds(20)));
        settings.endpoint().ifPresent(b::endpointOverride);
        settings.region().ifPresent(b::region);
        settings.credentials().ifPresent(b::credentialsProvider);
        return b.build();
    }

    /**
     * @throws PublishFailedException naming each entry SNS refused (after trying every batch)
     * @throws software.amazon.awssdk.core.exception.SdkException when a call fails as a whole (the SDK retried it)
     */
    @Override
    public void publish(List<FeedNotification> notifications) {
        List<String> failures = new ArrayList<>();
        for (int from = 0; from < notifications.size(); from += MAX_BATCH_ENTRIES) {
            List<FeedNotification> chunk = notifications.subList(from, Math.min(notifications.size(), from + MAX_BATCH_ENTRIES));
            List<PublishBatchRequestEntry> entries = chunk.stream().map(SnsPublisher::entry).toList();
            PublishBatchResponse response = sns.publishBatch(b -> b.topicArn(topicArn).publishBatchRequestEntries(entries));
            for (BatchResultErrorEntry e : response.failed()) {
                failures.add("entry " + e.id() + ": " + e.code() + (Boolean.TRUE.equals(e.senderFault()) ? " (sender fault)" : "")
                        + " " + e.message());
            }
        }
        if (!failures.isEmpty()) {
            throw new PublishFailedException(topicArn, failures);
        }
    }

    /** Entry ids are unique within a batch: one notification per partition. */
    static PublishBatchRequestEntry entry(FeedNotification n) {
        return PublishBatchRequestEntry.builder()
                .id("p" + n.partition().value())
                .message(n.toJson())
                .messageAttributes(Map.of(
                        FeedNotification.PARTITION_ATTRIBUTE, text(Integer.toString(n.partition().value())),
                        FeedNotification.POSITION_ATTRIBUTE, text(Long.toString(n.position().value()))))
                .build();
    }

    private static MessageAttributeValue text(String value) {
        return MessageAttributeValue.builder().dataType("String").stringValue(value).build();
    }
}

package io.appendsfeed.indexer.notifier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.appendsfeed.model.DynamoClients;
import io.appendsfeed.model.feed.FeedNotification;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.AbortableInputStream;
import software.amazon.awssdk.http.ExecutableHttpRequest;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.HttpExecuteResponse;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.SdkHttpFullRequest;
import software.amazon.awssdk.http.SdkHttpResponse;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sns.model.NotFoundException;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * The SNS publisher with the real SDK client: over HTTP to a local SNS (moto) that delivers to a
 * subscribed SQS queue, the request as sent on the wire, and SNS's answer when it refuses entries.
 */
class SnsPublisherTest {

    private final LocalMessaging messaging = LocalMessaging.shared();

    @Test
    void each_notification_reaches_a_subscribed_queue_as_one_message_with_its_body_and_attributes() {
        String topic = messaging.freshTopic();
        String queue = messaging.queueSubscribedTo(topic);
        List<FeedNotification> sent = List.of(FeedNotification.of(0, 1_000_042), FeedNotification.of(1, 7), FeedNotification.of(2, 0));
        new SnsPublisher(messaging.sns(), topic).publish(sent);

        List<Message> received = new ArrayList<>();
        for (List<Message> got = messaging.receive(queue); !got.isEmpty(); got = messaging.receive(queue)) {
            received.addAll(got);
            got.forEach(m -> messaging.sqs().deleteMessage(b -> b.queueUrl(queue).receiptHandle(m.receiptHandle())));
        }
        assertThat(received).extracting(m -> FeedNotification.parseJson(m.body())).containsExactlyInAnyOrderElementsOf(sent);
        for (Message m : received) {
            FeedNotification n = FeedNotification.parseJson(m.body());
            assertThat(m.messageAttributes().get("Partition").stringValue()).isEqualTo(Integer.toString(n.partition().value()));
            assertThat(m.messageAttributes().get("Position").stringValue()).isEqualTo(Long.toString(n.position().value()));
            assertThat(m.messageAttributes().get("Position").dataType()).isEqualTo("String");
        }
    }

    @Test
    void partitions_go_ten_to_a_publish_batch_request_with_the_wire_shape_sns_expects() {
        String topic = messaging.freshTopic();
        String queue = messaging.queueSubscribedTo(topic);
        Requests requests = new Requests();
        List<FeedNotification> sent = IntStream.range(0, 12).mapToObj(p -> FeedNotification.of(p, 3_000_000L + p)).toList();
        try (SnsClient sns = SnsClient.builder().endpointOverride(messaging.endpoint()).region(DynamoClients.LOCAL_REGION)
                .credentialsProvider(DynamoClients.LOCAL_CREDENTIALS).overrideConfiguration(c -> c.addExecutionInterceptor(requests)).build()) {
            new SnsPublisher(sns, topic).publish(sent);
        }
        assertThat(requests.forms).hasSize(2);
        Map<String, String> first = requests.forms.get(0);
        assertThat(first).containsEntry("Action", "PublishBatch").containsEntry("TopicArn", topic)
                .containsEntry("PublishBatchRequestEntries.member.1.Id", "p0")
                .containsEntry("PublishBatchRequestEntries.member.1.Message", "{\"partition\":0,\"position\":3000000}")
                .containsKey("PublishBatchRequestEntries.member.10.Id")
                .doesNotContainKey("PublishBatchRequestEntries.member.11.Id");
        Map<String, String> attributes = new LinkedHashMap<>();
        for (int k = 1; k <= 2; k++) {
            String prefix = "PublishBatchRequestEntries.member.1.MessageAttributes.entry." + k;
            assertThat(first).containsEntry(prefix + ".Value.DataType", "String");
            attributes.put(first.get(prefix + ".Name"), first.get(prefix + ".Value.StringValue"));
        }
        assertThat(attributes).containsOnly(Map.entry("Partition", "0"), Map.entry("Position", "3000000"));
        assertThat(requests.forms.get(1)).containsEntry("PublishBatchRequestEntries.member.2.Id", "p11")
                .doesNotContainKey("PublishBatchRequestEntries.member.3.Id");
        int delivered = 0;
        for (List<Message> got = messaging.receive(queue); !got.isEmpty(); got = messaging.receive(queue)) {
            delivered += got.size();
            got.forEach(m -> messaging.sqs().deleteMessage(b -> b.queueUrl(queue).receiptHandle(m.receiptHandle())));
        }
        assertThat(delivered).isEqualTo(12);
    }

    @Test
    void a_topic_that_does_not_exist_fails_the_publish() {
        String missing = messaging.freshTopic().replaceAll("[^:]+$", "no-such-topic");
        assertThatThrownBy(() -> new SnsPublisher(messaging.sns(), missing).publish(List.of(FeedNotification.of(0, 1))))
                .isInstanceOf(NotFoundException.class);
    }

    /**
     * SNS refusing some entries of a batch (throttling, a failure inside SNS) is what a local server
     * cannot be made to do: here the SDK parses SNS's documented answer, returned by a stub HTTP client.
     */
    @Test
    void entries_sns_refuses_fail_the_publish_naming_each_of_them() {
        String answer = """
                <PublishBatchResponse xmlns="http://sns.amazonaws.com/doc/2010-03-31/">
                  <PublishBatchResult>
                    <Successful><member><Id>p0</Id><MessageId>0f3e56d6-7c71-40c5-8f73-5ab799ebbd91</MessageId></member></Successful>
                    <Failed><member><Id>p1</Id><Code>InternalError</Code><Message>try again</Message><SenderFault>false</SenderFault></member></Failed>
                  </PublishBatchResult>
                  <ResponseMetadata><RequestId>1b2c3d</RequestId></ResponseMetadata>
                </PublishBatchResponse>""";
        String topic = "arn:aws:sns:us-east-1:123456789012:orders-feed";
        try (SnsClient sns = SnsClient.builder().httpClient(new Answering(answer)).endpointOverride(URI.create("http://127.0.0.1:9"))
                .region(DynamoClients.LOCAL_REGION).credentialsProvider(DynamoClients.LOCAL_CREDENTIALS).build()) {
            assertThatThrownBy(() -> new SnsPublisher(sns, topic).publish(List.of(FeedNotification.of(0, 5), FeedNotification.of(1, 9))))
                    .isInstanceOfSatisfying(SnsPublisher.PublishFailedException.class, e -> {
                        assertThat(e.destination()).isEqualTo(topic);
                        assertThat(e.failures()).containsExactly("entry p1: InternalError try again");
                    });
        }
    }

    /** Records each request's form parameters as sent. */
    private static final class Requests implements ExecutionInterceptor {
        final List<Map<String, String>> forms = new CopyOnWriteArrayList<>();

        @Override
        public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
            String body = ((SdkHttpFullRequest) context.httpRequest()).contentStreamProvider().map(b -> {
                try (var in = b.newStream()) {
                    return new String(in.readAllBytes(), StandardCharsets.UTF_8);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).orElse("");
            Map<String, String> form = new LinkedHashMap<>();
            for (String pair : body.split("&")) {
                int eq = pair.indexOf('=');
                form.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                        URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
            forms.add(form);
        }
    }

    /** An HTTP client that answers every request with 200 and the given body. */
    private record Answering(String body) implements SdkHttpClient {
        @Override
        public ExecutableHttpRequest prepareRequest(HttpExecuteRequest request) {
            return new ExecutableHttpRequest() {
                @Override
                public HttpExecuteResponse call() {
                    return HttpExecuteResponse.builder().response(SdkHttpResponse.builder().statusCode(200)
                                    .putHeader("Content-Type", "text/xml").build())
                            .responseBody(AbortableInputStream.create(new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8))))
                            .build();
                }

                @Override
                public void abort() {}
            };
        }

        @Override
        public void close() {}
    }
}

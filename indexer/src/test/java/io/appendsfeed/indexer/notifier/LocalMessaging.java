package io.appendsfeed.indexer.notifier;

import static org.awaitility.Awaitility.await;

import io.appendsfeed.model.DynamoClients;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * Test support: real SNS and SQS APIs on loopback, from moto's server ({@code moto_server}, Python,
 * installed on our build machines; {@code pip install 'moto[server]'} elsewhere), one per JVM,
 * started on a free port. It delivers what is published to a topic to the SQS queues subscribed to
 * it, as AWS does, so the notifier's real SNS client is tested over HTTP end to end. Clients are
 * built by {@link SnsPublisher#client} (as production builds them) and the SDK.
 */
public final class LocalMessaging {

    private static volatile LocalMessaging shared;
    private static final AtomicInteger NAMES = new AtomicInteger();

    private final Process process;
    private final URI endpoint;
    private final SnsClient sns;
    private final SqsClient sqs;

    private LocalMessaging(Process process, URI endpoint) {
        this.process = process;
        this.endpoint = endpoint;
        this.sns = SnsPublisher.client(settings());
        this.sqs = SqsClient.builder().httpClientBuilder(ApacheHttpClient.builder()).endpointOverride(endpoint)
                .region(DynamoClients.LOCAL_REGION).credentialsProvider(DynamoClients.LOCAL_CREDENTIALS).build();
    }

    public static LocalMessaging shared() {
        LocalMessaging s = shared;
        if (s == null) {
            synchronized (LocalMessaging.class) {
                s = shared;
                if (s == null) {
                    s = start();
                    shared = s;
                }
            }
        }
        return s;
    }

    private static LocalMessaging start() {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Path log;
        Process process;
        try {
            log = Files.createTempFile("moto-", ".log");
            process = new ProcessBuilder(command(), "-H", "127.0.0.1", "-p", Integer.toString(port))
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot start moto_server, which these tests need for SNS and SQS: install it"
                    + " with pip install 'moto[server]' (it is on the build machines) and put it on the PATH", e);
        }
        LocalMessaging m = new LocalMessaging(process, URI.create("http://127.0.0.1:" + port));
        Runtime.getRuntime().addShutdownHook(new Thread(m::stop, "moto-stop"));
        try {
            await("moto_server answering on port " + port).atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                    .ignoreExceptions().until(() -> process.isAlive() && m.sns.listTopics() != null);
        } catch (RuntimeException e) {
            m.stop();
            throw new IllegalStateException("moto_server did not start; its output: " + read(log), e);
        }
        return m;
    }

    private static String command() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, "moto_server"))) {
                return Path.of(dir, "moto_server").toString();
            }
        }
        return "moto_server";
    }

    private static String read(Path log) {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return "(unreadable: " + e + ")";
        }
    }

    private void stop() {
        sns.close();
        sqs.close();
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    public DynamoClients.Settings settings() {
        return DynamoClients.Settings.local(endpoint);
    }

    public URI endpoint() {
        return endpoint;
    }

    public SnsClient sns() {
        return sns;
    }

    public SqsClient sqs() {
        return sqs;
    }

    /** A new topic's ARN. */
    public String freshTopic() {
        return sns.createTopic(b -> b.name("feed-" + NAMES.incrementAndGet())).topicArn();
    }

    /** A new queue subscribed to the topic with raw message delivery (the body is the message as published); its URL. */
    public String queueSubscribedTo(String topicArn) {
        return queueSubscribedTo(topicArn, Duration.ofSeconds(30));
    }

    /** @param visibilityTimeout how long a received message stays hidden (then, not deleted, it is delivered again) */
    public String queueSubscribedTo(String topicArn, Duration visibilityTimeout) {
        String url = sqs.createQueue(b -> b.queueName("reactor-" + NAMES.incrementAndGet())
                .attributes(Map.of(QueueAttributeName.VISIBILITY_TIMEOUT, Long.toString(visibilityTimeout.toSeconds())))).queueUrl();
        String arn = sqs.getQueueAttributes(b -> b.queueUrl(url).attributeNames(QueueAttributeName.QUEUE_ARN))
                .attributes().get(QueueAttributeName.QUEUE_ARN);
        sns.subscribe(b -> b.topicArn(topicArn).protocol("sqs").endpoint(arn).attributes(Map.of("RawMessageDelivery", "true")));
        return url;
    }

    /** Up to 10 messages now on the queue (with their attributes), without deleting them. */
    public List<Message> receive(String queueUrl) {
        return sqs.receiveMessage(b -> b.queueUrl(queueUrl).maxNumberOfMessages(10).messageAttributeNames("All")
                .waitTimeSeconds(0)).messages();
    }
}

package io.appendsfeed.reader.lambda;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.appendsfeed.model.DynamoClients;
import io.appendsfeed.reader.FeedReaderConfig;
import io.appendsfeed.reader.StreamHandler;
import io.appendsfeed.reader.lambda.internal.LambdaInput;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The base of a reactor hosted in AWS Lambda: extend it with your {@link StreamHandler} and
 * {@link FeedReaderConfig} and a public no-arg constructor, and name it as the function's handler.
 * One function takes three kinds of event:
 *
 * <ul>
 * <li><b>SQS</b> (a queue subscribed to the notifier's topic; the event source mapping with
 *     {@code ReportBatchItemFailures}): reads the notified partitions until each notified position is
 *     reached, commits, and reports as batch item failures the messages whose position was not
 *     reached (the time ran out, a partition failed, another invocation held its lease throughout)
 *     and the messages that are not notifications, so that SQS delivers them again (and, in the end,
 *     to its dead-letter queue).</li>
 * <li><b>SNS</b> (the function subscribed to the topic directly): the same; failure is thrown, so that
 *     Lambda retries the event.</li>
 * <li><b>EventBridge scheduled events</b>: reads every partition to its tail, the safety net that heals
 *     a lost notification; not caught up is thrown, so that Lambda retries.</li>
 * </ul>
 *
 * <p>Every invocation reads within the time it has less {@link ReactorSettings#margin()}, and commits
 * before returning. Leases keep two concurrent invocations from reading the same partition.
 *
 * <pre>{@code
 * public final class ProjectorFunction extends ReactorHandler {
 *     public ProjectorFunction() {
 *         super(settings -> settings.configBuilder().categories(Set.of("Order")).build(), new Projector());
 *     }
 * }
 * }</pre>
 */
public abstract class ReactorHandler implements RequestStreamHandler {

    private static final Logger LOG = LoggerFactory.getLogger(ReactorHandler.class);
    /** Reads the events Lambda delivers (e.g. {@code Records}, {@code eventSourceARN}) onto aws-lambda-java-events' types. */
    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(MapperFeature.ACCEPT_CASE_INSENSITIVE_PROPERTIES)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    private final Reactor reactor;

    /**
     * Settings from the environment ({@link ReactorSettings}): the DynamoDB client is built from them, and
     * {@code config} builds the reader's configuration from them.
     *
     * @throws IllegalArgumentException when a setting is invalid, or the configuration's group is not {@code APPENDS_GROUP}
     */
    protected ReactorHandler(Function<ReactorSettings, FeedReaderConfig> config, StreamHandler handler) {
        this(ReactorSettings.fromEnvironment(), config, handler);
    }

    private ReactorHandler(ReactorSettings settings, Function<ReactorSettings, FeedReaderConfig> config, StreamHandler handler) {
        this(DynamoClients.dynamoDb(settings.dynamo()), settings, config.apply(settings), handler);
    }

    /**
     * @throws IllegalArgumentException when {@code APPENDS_GROUP} is set and the configuration reads another group (the
     *         function's role may write only the checkpoints of the group it names), or the start position is explicit
     */
    protected ReactorHandler(DynamoDbClient dynamo, ReactorSettings settings, FeedReaderConfig config, StreamHandler handler) {
        Objects.requireNonNull(settings, "settings");
        settings.group().ifPresent(g -> {
            if (!g.equals(config.group())) {
                throw new IllegalArgumentException("the reactor reads group '" + config.group() + "' but " + ReactorSettings.GROUP
                        + " is '" + g + "' (the group the function's role may commit): build the configuration with"
                        + " settings.configBuilder() or deploy it with Group=" + config.group());
            }
        });
        this.reactor = new Reactor(dynamo, config, handler, settings.margin());
    }

    /**
     * The function's entry point: SQS, SNS or a scheduled event, told apart by their shape.
     *
     * @throws IllegalArgumentException when the event is none of them
     * @throws ReactorNotCaughtUpException for SNS and scheduled events not done in time (Lambda retries them)
     */
    @Override
    public final void handleRequest(InputStream input, OutputStream output, Context context) throws IOException {
        JsonNode event = JSON.readTree(input);
        Object response = switch (LambdaInput.kind(event)) {
            case SQS -> batchResponse(handleSqs(JSON.treeToValue(event, SQSEvent.class), context));
            case SNS -> summary(handleSns(LambdaInput.sns(event), context));
            case SCHEDULED -> summary(handleSchedule(context));
        };
        JSON.writeValue(output, response);
    }

    /** SQS messages: reads until their positions are reached; the others are returned as batch item failures. */
    public SQSBatchResponse handleSqs(SQSEvent event, Context context) {
        List<SQSEvent.SQSMessage> messages = event.getRecords() == null ? List.of() : event.getRecords();
        List<Reactor.Notice> notices = new ArrayList<>();
        Set<String> failed = new HashSet<>();
        for (SQSEvent.SQSMessage m : messages) {
            try {
                notices.add(new Reactor.Notice(m.getMessageId(), LambdaInput.notification(m.getBody(), attributes(m))));
            } catch (IllegalArgumentException e) {
                LOG.error("group {}: SQS message {} is not a feed notification, left for the dead-letter queue: {}",
                        reactor.config().group(), m.getMessageId(), e.getMessage());
                failed.add(m.getMessageId());
            }
        }
        if (!notices.isEmpty()) {
            failed.addAll(reactor.notified(notices, remaining(context), context.getAwsRequestId()).unmet());
        }
        List<SQSBatchResponse.BatchItemFailure> failures = new ArrayList<>();
        for (SQSEvent.SQSMessage m : messages) {
            if (failed.contains(m.getMessageId())) {
                failures.add(new SQSBatchResponse.BatchItemFailure(m.getMessageId()));
            }
        }
        return new SQSBatchResponse(failures);
    }

    /**
     * A scheduled event: reads every partition to its tail.
     *
     * @throws ReactorNotCaughtUpException when it did not catch up (Lambda retries the event)
     */
    public ReactorOutcome handleSchedule(Context context) {
        ReactorOutcome outcome = reactor.scheduled(remaining(context), context.getAwsRequestId());
        if (!outcome.caughtUp()) {
            throw new ReactorNotCaughtUpException(reactor.config().group(), outcome);
        }
        return outcome;
    }

    private ReactorOutcome handleSns(List<LambdaInput.SnsMessage> messages, Context context) {
        List<Reactor.Notice> notices = new ArrayList<>();
        List<String> unreadable = new ArrayList<>();
        for (LambdaInput.SnsMessage m : messages) {
            try {
                notices.add(new Reactor.Notice(m.id(), LambdaInput.notification(m.message(), m.attributes())));
            } catch (IllegalArgumentException e) {
                unreadable.add("SNS message " + m.id() + " is not a feed notification: " + e.getMessage());
            }
        }
        ReactorOutcome outcome = reactor.notified(notices, remaining(context), context.getAwsRequestId());
        if (!unreadable.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", unreadable));
        }
        if (!outcome.caughtUp()) {
            throw new ReactorNotCaughtUpException(reactor.config().group(), outcome);
        }
        return outcome;
    }

    private static Map<String, String> attributes(SQSEvent.SQSMessage m) {
        Map<String, String> out = new LinkedHashMap<>();
        if (m.getMessageAttributes() != null) {
            m.getMessageAttributes().forEach((k, v) -> {
                if (v != null && v.getStringValue() != null) {
                    out.put(k, v.getStringValue());
                }
            });
        }
        return out;
    }

    private static Duration remaining(Context context) {
        Objects.requireNonNull(context, "context: Lambda's, or one that says how much time is left");
        return Duration.ofMillis(context.getRemainingTimeInMillis());
    }

    /** {@code {"batchItemFailures":[{"itemIdentifier":"<message id>"}]}}: the SQS partial batch response. */
    private static ObjectNode batchResponse(SQSBatchResponse r) {
        ObjectNode out = JSON.createObjectNode();
        var list = out.putArray("batchItemFailures");
        r.getBatchItemFailures().forEach(f -> list.addObject().put("itemIdentifier", f.getItemIdentifier()));
        return out;
    }

    private static ObjectNode summary(ReactorOutcome o) {
        ObjectNode out = JSON.createObjectNode();
        out.put("caughtUp", o.caughtUp()).put("runs", o.runs()).put("tookMillis", o.took().toMillis());
        return out;
    }
}

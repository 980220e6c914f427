package io.appendsfeed.reader.lambda;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.appendsfeed.model.DynamoClients;
import io.appendsfeed.reader.FeedReaderConfig;
import io.appendsfeed.reader.StreamHandler;
import io.appendsfeed.reader.lambda.internal.LambdaInput;
import io.appendsfeed.reader.lambda.internal.LambdaInput.Message;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The base of a reactor hosted in AWS Lambda: extend it with your {@link StreamHandler} and
 * {@link FeedReaderConfig} and a public no-arg constructor, and name it as the function's handler.
 * It only translates Lambda's events for the {@link Reactor}. One function takes three kinds of event:
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
    private static final ObjectMapper JSON = new ObjectMapper();

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
     * @throws IllegalArgumentException when the event is none of them, or an SNS message is not a feed notification
     * @throws ReactorNotCaughtUpException for SNS and scheduled events not done in time (Lambda retries them)
     */
    @Override
    public final void handleRequest(InputStream input, OutputStream output, Context context) throws IOException {
        JsonNode event = JSON.readTree(input);
        LambdaInput.Kind kind = LambdaInput.kind(event);
        ObjectNode response = switch (kind) {
            case SQS -> sqs(LambdaInput.messages(kind, event), context);
            case SNS -> summary(sns(LambdaInput.messages(kind, event), context));
            case SCHEDULED -> summary(caughtUp(reactor.scheduled(remaining(context), context.getAwsRequestId())));
        };
        JSON.writeValue(output, response);
    }

    /** {@code {"batchItemFailures":[{"itemIdentifier":"<message id>"}]}}: the messages not reached or not notifications. */
    private ObjectNode sqs(List<Message> messages, Context context) {
        Map<String, String> unreadable = new LinkedHashMap<>();
        List<Reactor.Notice> notices = notices(messages, unreadable);
        unreadable.forEach((id, why) -> LOG.error("group {}: SQS message {} is not a feed notification, left for the dead-letter"
                + " queue: {}", reactor.config().group(), id, why));
        Set<String> failed = new TreeSet<>(unreadable.keySet());
        if (!notices.isEmpty()) {
            failed.addAll(reactor.notified(notices, remaining(context), context.getAwsRequestId()).unmet());
        }
        ObjectNode out = JSON.createObjectNode();
        ArrayNode failures = out.putArray("batchItemFailures");
        messages.stream().map(Message::id).filter(failed::contains).forEach(id -> failures.addObject().put("itemIdentifier", id));
        return out;
    }

    private ReactorOutcome sns(List<Message> messages, Context context) {
        Map<String, String> unreadable = new LinkedHashMap<>();
        ReactorOutcome outcome = reactor.notified(notices(messages, unreadable), remaining(context), context.getAwsRequestId());
        if (!unreadable.isEmpty()) {
            List<String> why = new ArrayList<>();
            unreadable.forEach((id, e) -> why.add("SNS message " + id + " is not a feed notification: " + e));
            throw new IllegalArgumentException(String.join("; ", why));
        }
        return caughtUp(outcome);
    }

    /** @param unreadable gets the id of each message that is not a notification, with why */
    private static List<Reactor.Notice> notices(List<Message> messages, Map<String, String> unreadable) {
        List<Reactor.Notice> out = new ArrayList<>();
        for (Message m : messages) {
            try {
                out.add(new Reactor.Notice(m.id(), LambdaInput.notification(m.body(), m.attributes())));
            } catch (IllegalArgumentException e) {
                unreadable.put(m.id(), e.getMessage());
            }
        }
        return out;
    }

    /** @throws ReactorNotCaughtUpException when it did not catch up (Lambda retries the event) */
    private ReactorOutcome caughtUp(ReactorOutcome outcome) {
        if (!outcome.caughtUp()) {
            throw new ReactorNotCaughtUpException(reactor.config().group(), outcome);
        }
        return outcome;
    }

    private static Duration remaining(Context context) {
        Objects.requireNonNull(context, "context: Lambda's, or one that says how much time is left");
        return Duration.ofMillis(context.getRemainingTimeInMillis());
    }

    private static ObjectNode summary(ReactorOutcome o) {
        return JSON.createObjectNode().put("caughtUp", o.caughtUp()).put("runs", o.runs()).put("tookMillis", o.took().toMillis());
    }
}

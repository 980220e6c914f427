package io.appendsfeed.reader.lambda;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.appendsfeed.model.DynamoClients;
import io.appendsfeed.model.feed.FeedNotification;
import io.appendsfeed.reader.FeedReaderConfig;
import io.appendsfeed.reader.StreamHandler;
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
 * {@link FeedReaderConfig} in a public no-arg constructor. It only translates Lambda's events for
 * the {@link Reactor}:
 * <ul>
 * <li><b>SQS</b> (with {@code ReportBatchItemFailures}): {@link Reactor#notified}; messages not reached
 *     or not notifications are reported as batch item failures, so that SQS delivers them again.</li>
 * <li><b>SNS</b>: the same; a failure is thrown, so that Lambda retries.</li>
 * <li><b>EventBridge scheduled events</b>: {@link Reactor#scheduled}; not caught up is thrown, so that Lambda retries.</li>
 * </ul>
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
     * With the DynamoDB client and {@code config} built from the environment's {@link ReactorSettings}.
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
     * @throws NotCaughtUpException for SNS and scheduled events not done in time (Lambda retries them)
     */
    @Override
    public final void handleRequest(InputStream input, OutputStream output, Context context) throws IOException {
        JsonNode event = JSON.readTree(input);
        JsonNode records = event.path("Records");
        JsonNode first = records.path(0);
        ObjectNode response;
        if ("aws:sqs".equals(first.path("eventSource").asText())) {
            response = sqs(messages(records, false), context);
        } else if ("aws:sns".equals(first.path("EventSource").asText())) {
            response = summary(sns(messages(records, true), context));
        } else if ("aws.events".equals(event.path("source").asText()) || "Scheduled Event".equals(event.path("detail-type").asText())) {
            response = summary(caughtUp(reactor.scheduled(remaining(context), context.getAwsRequestId())));
        } else if (records.isArray() && records.isEmpty()) {
            response = sqs(List.of(), context); // an empty batch: nothing to do, answered as SQS
        } else {
            throw new IllegalArgumentException("a reactor takes SQS messages, SNS notifications or EventBridge scheduled events;"
                    + " this event is none of them (its keys: " + names(event) + (first.isMissingNode() ? "" : ", its first record's keys: "
                    + names(first)) + ")");
        }
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

    private Reactor.Outcome sns(List<Message> messages, Context context) {
        Map<String, String> unreadable = new LinkedHashMap<>();
        List<Reactor.Notice> notices = notices(messages, unreadable);
        if (!unreadable.isEmpty()) {
            throw new IllegalArgumentException("SNS messages that are not feed notifications: " + unreadable);
        }
        return caughtUp(reactor.notified(notices, remaining(context), context.getAwsRequestId()));
    }

    /** A message of an SQS or SNS event: its id, its text and its string attributes. */
    private record Message(String id, String body, Map<String, String> attributes) {}

    /**
     * The messages of an SQS event ({@code messageId}, {@code body}, {@code messageAttributes.*.stringValue}) or
     * of an SNS event ({@code Sns.MessageId}, {@code Sns.Message}, {@code Sns.MessageAttributes.*.Value}).
     */
    private static List<Message> messages(JsonNode records, boolean sns) {
        List<Message> out = new ArrayList<>();
        for (JsonNode r : records) {
            out.add(sns ? new Message(r.path("Sns").path("MessageId").asText(), r.path("Sns").path("Message").asText(null),
                    attributes(r.path("Sns"), "MessageAttributes", "Value"))
                    : new Message(r.path("messageId").asText(), r.path("body").asText(null), attributes(r, "messageAttributes", "stringValue")));
        }
        return out;
    }

    /** @param unreadable gets the id of each message that is not a notification, with why */
    private static List<Reactor.Notice> notices(List<Message> messages, Map<String, String> unreadable) {
        List<Reactor.Notice> out = new ArrayList<>();
        for (Message m : messages) {
            try {
                out.add(new Reactor.Notice(m.id(), notification(m.body(), m.attributes())));
            } catch (IllegalArgumentException e) {
                unreadable.put(m.id(), e.getMessage());
            }
        }
        return out;
    }

    /**
     * The notification a message carries: from its {@code Partition} and {@code Position} attributes, else
     * from its body, raw or in SNS's envelope (a queue subscribed without raw message delivery).
     *
     * @throws IllegalArgumentException saying what is wrong when it carries none
     */
    private static FeedNotification notification(String body, Map<String, String> attributes) {
        String partition = attributes.get(FeedNotification.PARTITION_ATTRIBUTE);
        String position = attributes.get(FeedNotification.POSITION_ATTRIBUTE);
        if (partition != null && position != null) {
            return FeedNotification.parseAttributes(partition, position);
        }
        JsonNode envelope = envelope(body);
        if (envelope != null) {
            return notification(envelope.path("Message").asText(null), attributes(envelope, "MessageAttributes", "Value"));
        }
        return FeedNotification.parseJson(body);
    }

    /** SNS's envelope, or null when the body is not one. */
    private static JsonNode envelope(String body) {
        if (body == null || !body.contains("\"Type\"")) {
            return null;
        }
        try {
            JsonNode node = JSON.readTree(body);
            return node.isObject() && "Notification".equals(node.path("Type").asText()) && node.has("Message") ? node : null;
        } catch (JsonProcessingException e) {
            return null; // not JSON at all: parseJson says so
        }
    }

    /** A message's string attributes: SQS's {@code {"Name": {"stringValue": "..."}}}, SNS's {@code {"Name": {"Value": "..."}}}. */
    private static Map<String, String> attributes(JsonNode message, String field, String value) {
        Map<String, String> out = new LinkedHashMap<>();
        message.path(field).fields().forEachRemaining(e -> {
            if (e.getValue().path(value).isValueNode() && !e.getValue().path(value).isNull()) {
                out.put(e.getKey(), e.getValue().path(value).asText());
            }
        });
        return out;
    }

    private static List<String> names(JsonNode node) {
        List<String> out = new ArrayList<>();
        node.fieldNames().forEachRemaining(out::add);
        return out;
    }

    /** @throws NotCaughtUpException when it did not catch up (Lambda retries the event) */
    private Reactor.Outcome caughtUp(Reactor.Outcome outcome) {
        if (!outcome.caughtUp()) {
            throw new NotCaughtUpException(reactor.config().group(), outcome);
        }
        return outcome;
    }

    private static Duration remaining(Context context) {
        Objects.requireNonNull(context, "context: Lambda's, or one that says how much time is left");
        return Duration.ofMillis(context.getRemainingTimeInMillis());
    }

    private static ObjectNode summary(Reactor.Outcome o) {
        return JSON.createObjectNode().put("caughtUp", o.caughtUp()).put("runs", o.runs()).put("tookMillis", o.took().toMillis());
    }

    /**
     * A scheduled or SNS-triggered invocation did not do what it was woken for: thrown so that Lambda
     * retries it. What was handled is committed and not handled again.
     */
    public static class NotCaughtUpException extends RuntimeException {
        private final transient Reactor.Outcome outcome;

        public NotCaughtUpException(String group, Reactor.Outcome outcome) {
            super("group " + group + " did not catch up in " + outcome.took().toMillis() + " ms (" + outcome.runs() + " runs)"
                    + (outcome.unmet().isEmpty() ? "" : "; notifications not reached: " + outcome.unmet())
                    + (outcome.problems().isEmpty() ? "" : "; " + String.join("; ", outcome.problems())));
            this.outcome = outcome;
        }

        public Reactor.Outcome outcome() {
            return outcome;
        }
    }
}

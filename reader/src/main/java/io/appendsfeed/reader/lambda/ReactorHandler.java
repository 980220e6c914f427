package io.appendsfeed.reader.lambda;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
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
import java.util.List;
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
     * The function's entry point: SQS or a scheduled event, told apart by their shape.
     *
     * @throws IllegalArgumentException when the event is neither
     * @throws NotCaughtUpException for a scheduled event not done in time (Lambda retries it)
     */
    @Override
    public final void handleRequest(InputStream input, OutputStream output, Context context) throws IOException {
        JsonNode event = JSON.readTree(input);
        JsonNode records = event.path("Records");
        JsonNode first = records.path(0);
        ObjectNode response;
        if ("aws:sqs".equals(first.path("eventSource").asText()) || records.isArray() && records.isEmpty()) {
            response = sqs(records, context);
        } else if ("aws.events".equals(event.path("source").asText()) || "Scheduled Event".equals(event.path("detail-type").asText())) {
            response = scheduled(context);
        } else {
            throw new IllegalArgumentException("a reactor takes SQS messages or EventBridge scheduled events; this event is"
                    + " neither (its keys: " + names(event) + (first.isMissingNode() ? "" : ", its first record's keys: "
                    + names(first)) + ")");
        }
        JSON.writeValue(output, response);
    }

    /** {@code {"batchItemFailures":[{"itemIdentifier":"<message id>"}]}}: the messages not reached or not notifications. */
    private ObjectNode sqs(JsonNode records, Context context) {
        List<Reactor.Notice> notices = new ArrayList<>();
        Set<String> failed = new TreeSet<>();
        for (JsonNode r : records) {
            String id = r.path("messageId").asText();
            try {
                notices.add(new Reactor.Notice(id, notification(r)));
            } catch (IllegalArgumentException e) {
                LOG.error("group {}: SQS message {} is not a feed notification (from a subscription without raw message"
                        + " delivery?), left for the dead-letter queue: {}", reactor.config().group(), id, e.getMessage());
                failed.add(id);
            }
        }
        if (!notices.isEmpty()) {
            failed.addAll(reactor.notified(notices, remaining(context), context.getAwsRequestId()).unmet());
        }
        ObjectNode out = JSON.createObjectNode();
        ArrayNode failures = out.putArray("batchItemFailures");
        for (JsonNode r : records) {
            if (failed.contains(r.path("messageId").asText())) {
                failures.addObject().put("itemIdentifier", r.path("messageId").asText());
            }
        }
        return out;
    }

    /**
     * The notification an SQS message carries: from its {@code Partition} and {@code Position} attributes
     * (Propulsion's notifier), else from its body.
     *
     * @throws IllegalArgumentException saying what is wrong when it carries none
     */
    private static FeedNotification notification(JsonNode message) {
        String partition = attribute(message, FeedNotification.PARTITION_ATTRIBUTE);
        String position = attribute(message, FeedNotification.POSITION_ATTRIBUTE);
        if (partition != null && position != null) {
            return FeedNotification.parseAttributes(partition, position);
        }
        return FeedNotification.parseJson(message.path("body").asText(null));
    }

    /** A string attribute of an SQS message ({@code {"Name": {"stringValue": "..."}}}), or null. */
    private static String attribute(JsonNode message, String name) {
        JsonNode value = message.path("messageAttributes").path(name).path("stringValue");
        return value.isValueNode() && !value.isNull() ? value.asText() : null;
    }

    private static List<String> names(JsonNode node) {
        List<String> out = new ArrayList<>();
        node.fieldNames().forEachRemaining(out::add);
        return out;
    }

    /** {@code {"caughtUp":true,"runs":1,"tookMillis":120}}. @throws NotCaughtUpException when it did not catch up (Lambda retries the event) */
    private ObjectNode scheduled(Context context) {
        Reactor.Outcome o = reactor.scheduled(remaining(context), context.getAwsRequestId());
        if (!o.caughtUp()) {
            throw new NotCaughtUpException(reactor.config().group(), o);
        }
        return JSON.createObjectNode().put("caughtUp", true).put("runs", o.runs()).put("tookMillis", o.took().toMillis());
    }

    private static Duration remaining(Context context) {
        Objects.requireNonNull(context, "context: Lambda's, or one that says how much time is left");
        return Duration.ofMillis(context.getRemainingTimeInMillis());
    }

    /**
     * A scheduled invocation did not do what it was woken for: thrown so that Lambda
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

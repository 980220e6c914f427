package io.appendsfeed.reader.lambda;

import io.appendsfeed.model.DynamoClients;
import io.appendsfeed.model.feed.FeedStreams;
import io.appendsfeed.reader.FeedReaderConfig;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Function;

/**
 * A Lambda-hosted reactor's settings, read from environment variables in this one place (through a
 * {@code Function<String,String>} so that tests pass a map). {@code reactor.yaml} sets them.
 *
 * <table>
 * <tr><td>{@code APPENDS_INDEX_TABLE}</td><td>the index table (for {@link #configBuilder()})</td></tr>
 * <tr><td>{@code APPENDS_STORE_TABLE}</td><td>the store table (for {@link #configBuilder()})</td></tr>
 * <tr><td>{@code APPENDS_GROUP}</td><td>the consumer group the function's role may write; when set, the
 *     reactor's configuration must use it</td></tr>
 * <tr><td>{@code APPENDS_REACTOR_MARGIN_MILLIS}</td><td>time kept free at the end of each invocation to
 *     finish handler calls and commit (default 5000)</td></tr>
 * <tr><td>{@code APPENDS_DYNAMODB_ENDPOINT}</td><td>optional endpoint override</td></tr>
 * <tr><td>{@code AWS_REGION}</td><td>set by Lambda</td></tr>
 * </table>
 */
public record ReactorSettings(Optional<String> indexTable, Optional<String> storeTable, Optional<String> group,
                              Duration margin, DynamoClients.Settings dynamo) {

    public static final String INDEX_TABLE = "APPENDS_INDEX_TABLE";
    public static final String STORE_TABLE = "APPENDS_STORE_TABLE";
    public static final String GROUP = "APPENDS_GROUP";
    public static final String MARGIN_MILLIS = "APPENDS_REACTOR_MARGIN_MILLIS";
    public static final String ENDPOINT = "APPENDS_DYNAMODB_ENDPOINT";
    public static final String REGION = "AWS_REGION";

    /** Default time kept free at the end of an invocation. */
    public static final Duration DEFAULT_MARGIN = Duration.ofSeconds(5);

    /** @throws IllegalArgumentException naming the variable that is invalid and what it takes */
    public static ReactorSettings from(Function<String, String> env) {
        Optional<String> group = text(env, GROUP);
        try {
            group.ifPresent(FeedStreams::checkGroup);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(GROUP + ": " + e.getMessage(), e);
        }
        String margin = text(env, MARGIN_MILLIS).orElse(Long.toString(DEFAULT_MARGIN.toMillis()));
        if (!margin.replace("_", "").matches("0*[1-9][0-9]{0,17}")) {
            throw new IllegalArgumentException(MARGIN_MILLIS + " is '" + margin + "': give a positive number of"
                    + " milliseconds (default " + DEFAULT_MARGIN.toMillis() + ")");
        }
        return new ReactorSettings(text(env, INDEX_TABLE), text(env, STORE_TABLE), group,
                Duration.ofMillis(Long.parseLong(margin.replace("_", ""))), DynamoClients.Settings.of(env.apply(ENDPOINT), env.apply(REGION)));
    }

    /** From the environment of this process. */
    public static ReactorSettings fromEnvironment() {
        return from(System::getenv);
    }

    /**
     * A reader configuration for the group and tables set here, to add the reactor's own choices to.
     *
     * @throws IllegalArgumentException naming each variable that is not set
     */
    public FeedReaderConfig.Builder configBuilder() {
        StringBuilder missing = new StringBuilder();
        if (group.isEmpty()) missing.append(' ').append(GROUP);
        if (indexTable.isEmpty()) missing.append(' ').append(INDEX_TABLE);
        if (storeTable.isEmpty()) missing.append(' ').append(STORE_TABLE);
        if (!missing.isEmpty()) {
            throw new IllegalArgumentException("not set:" + missing + " (reactor.yaml sets them; elsewhere set them or build"
                    + " the FeedReaderConfig yourself)");
        }
        return FeedReaderConfig.builder(group.get(), indexTable.get(), storeTable.get());
    }

    private static Optional<String> text(Function<String, String> env, String name) {
        String v = env.apply(name);
        return v == null || v.isBlank() ? Optional.empty() : Optional.of(v.trim());
    }
}

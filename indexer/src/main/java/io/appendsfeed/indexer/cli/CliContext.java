package io.appendsfeed.indexer.cli;

import io.appendsfeed.model.DynamoClients;
import java.io.PrintWriter;
import java.time.Clock;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * What a command runs with, handed in by the entry point so that tests pass their own.
 *
 * @param env environment variables (tests pass a map's {@code get})
 * @param user who runs the command, recorded as {@code by} in what it changes (default: the OS user)
 * @param clients builds the DynamoDB client from the resolved connection (tests add interceptors)
 * @param where where the last connection went, for error messages ({@link Connection} sets it)
 */
public record CliContext(Function<String, String> env, PrintWriter out, PrintWriter err, Clock clock, String user,
                         Function<DynamoClients.Settings, DynamoDbClient> clients, AtomicReference<String> where) {
    /** With the OS user, clients built by {@link DynamoClients}. */
    public CliContext(Function<String, String> env, PrintWriter out, PrintWriter err, Clock clock) {
        this(env, out, err, clock, System.getProperty("user.name", "unknown user"), DynamoClients::dynamoDb,
                new AtomicReference<>());
    }
}

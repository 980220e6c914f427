package io.appendsfeed.samples.local;

import io.appendsfeed.model.DynamoClients;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;

/**
 * Where a sample runs: DynamoDB Local in this process (in memory, over HTTP so that other tools see the tables), or an
 * endpoint already running; with clients of it. Its licence lets us run DynamoDB Local, not ship it.
 */
public final class LocalEnvironment implements AutoCloseable {

    private final DynamoDBProxyServer server;
    private final URI endpoint;
    private final DynamoDbClient dynamo;
    private final DynamoDbStreamsClient streams;

    private LocalEnvironment(DynamoDBProxyServer server, URI endpoint) {
        this.server = server;
        this.endpoint = endpoint;
        this.dynamo = DynamoClients.dynamoDb(DynamoClients.Settings.local(endpoint).withMaxConnections(64));
        this.streams = DynamoClients.streams(DynamoClients.Settings.local(endpoint));
    }

    /** @param args a sample's command line: empty, or an endpoint to use instead of starting DynamoDB Local */
    public static LocalEnvironment fromArgs(String[] args) {
        return args.length > 0 ? new LocalEnvironment(null, URI.create(args[0])) : start();
    }

    /** Starts DynamoDB Local on a free port; throws IllegalStateException when it cannot. */
    public static LocalEnvironment start() {
        int p;
        try (ServerSocket socket = new ServerSocket(0)) {
            p = socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException("no free port for DynamoDB Local: " + e.getMessage(), e);
        }
        try {
            DynamoDBProxyServer server = ServerRunner.createServerFromCommandLineArgs(new String[] {
                // -sharedDb: one database whatever the caller's access key and region, so that the feed CLI, the AWS CLI
                // and any SDK with any credentials see the same tables (without it each key and region has its own)
                "-inMemory", "-sharedDb", "-port", Integer.toString(p), "-disableTelemetry"});
            server.start();
            return new LocalEnvironment(server, URI.create("http://localhost:" + p));
        } catch (Exception e) {
            throw new IllegalStateException("could not start DynamoDB Local on port " + p + ": " + e, e);
        }
    }

    /** E.g. {@code http://localhost:8000}. */
    public URI endpoint() {
        return endpoint;
    }

    public DynamoDbClient dynamo() {
        return dynamo;
    }

    public DynamoDbStreamsClient streams() {
        return streams;
    }

    /** Closes the clients and stops DynamoDB Local if it was started here: its tables are gone. */
    @Override
    public void close() {
        dynamo.close();
        streams.close();
        if (server != null) {
            try {
                server.stop();
            } catch (Exception e) {
                throw new IllegalStateException("DynamoDB Local did not stop cleanly: " + e, e);
            }
        }
    }
}

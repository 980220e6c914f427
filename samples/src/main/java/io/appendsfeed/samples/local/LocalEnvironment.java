package io.appendsfeed.samples.local;

import io.appendsfeed.model.DynamoClients;
import java.net.URI;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * Where a sample's {@code main} runs: DynamoDB Local started in process on a free port, or an
 * endpoint already running (the first argument, e.g. {@code http://localhost:8000}, such as a
 * demo kept up with {@code --stay}).
 */
public final class LocalEnvironment implements AutoCloseable {

    private final LocalDynamoServer server;
    private final URI endpoint;
    private final DynamoDbClient dynamo;
    private final DynamoDbStreamsClient streams;

    private LocalEnvironment(LocalDynamoServer server, URI endpoint) {
        this.server = server;
        this.endpoint = endpoint;
        DynamoClients.Settings settings = DynamoClients.Settings.local(endpoint);
        this.dynamo = DynamoClients.dynamoDb(settings);
        this.streams = DynamoClients.streams(settings);
    }

    /** @param args a sample's command line: empty, or an endpoint to use instead of starting DynamoDB Local */
    public static LocalEnvironment fromArgs(String[] args) {
        if (args.length > 0) {
            return new LocalEnvironment(null, URI.create(args[0]));
        }
        LocalDynamoServer server = LocalDynamoServer.start(0);
        return new LocalEnvironment(server, server.endpoint());
    }

    public URI endpoint() { return endpoint; }
    public DynamoDbClient dynamo() { return dynamo; }
    public DynamoDbStreamsClient streams() { return streams; }

    @Override
    public void close() {
        dynamo.close();
        streams.close();
        if (server != null) {
            server.close();
        }
    }
}

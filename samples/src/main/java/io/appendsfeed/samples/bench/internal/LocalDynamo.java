package io.appendsfeed.samples.bench.internal;

import io.appendsfeed.model.DynamoClients;
import io.appendsfeed.model.store.StoreTables;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;
import software.amazon.dynamodb.services.local.embedded.DynamoDBEmbedded;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;
import software.amazon.dynamodb.services.local.shared.access.AmazonDynamoDBLocal;

/**
 * DynamoDB Local, in memory, for one group of benchmark scenarios: either the HTTP server on a free
 * loopback port with the normal SDK clients (the default: the full client path, as on AWS, and the
 * only way another process such as equinox-js can share the tables), or embedded (in process, the
 * SDK's calls go straight to the engine: no HTTP, no marshalling; faster and flattering).
 */
public final class LocalDynamo implements AutoCloseable {

    /** How the clients reach DynamoDB Local. */
    public enum Transport { EMBEDDED, HTTP }

    private final Transport transport;
    private final AmazonDynamoDBLocal embedded;
    private final DynamoDBProxyServer server;
    private final DynamoDbClient dynamo;
    private final DynamoDbStreamsClient streams;
    private final URI endpoint;

    private LocalDynamo(Transport transport, AmazonDynamoDBLocal embedded, DynamoDBProxyServer server,
                        DynamoDbClient dynamo, DynamoDbStreamsClient streams, URI endpoint) {
        this.transport = transport;
        this.endpoint = endpoint;
        this.embedded = embedded;
        this.server = server;
        this.dynamo = dynamo;
        this.streams = streams;
    }

    /** @throws IllegalStateException when DynamoDB Local cannot start (e.g. no free port) */
    public static LocalDynamo start(Transport transport) {
        if (transport == Transport.EMBEDDED) {
            AmazonDynamoDBLocal e = DynamoDBEmbedded.create(true);
            return new LocalDynamo(transport, e, null, e.dynamoDbClient(), e.dynamoDbStreamsClient(), null);
        }
        int port = freePort();
        try {
            // -sharedDb: one database whatever the credentials and region of the client (other processes share the tables)
            DynamoDBProxyServer s = ServerRunner.createServerFromCommandLineArgs(new String[] {
                "-inMemory", "-sharedDb", "-port", Integer.toString(port), "-disableTelemetry"});
            s.start();
            URI endpoint = URI.create("http://localhost:" + port);
            DynamoClients.Settings settings = DynamoClients.Settings.local(endpoint).withMaxConnections(32);
            return new LocalDynamo(transport, null, s, DynamoClients.dynamoDb(settings), DynamoClients.streams(settings), endpoint);
        } catch (Exception e) {
            throw new IllegalStateException("could not start DynamoDB Local on port " + port + ": " + e.getMessage(), e);
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException("no free port for DynamoDB Local", e);
        }
    }

    public Transport transport() {
        return transport;
    }

    /**
     * The HTTP endpoint, for clients in other processes.
     *
     * @throws IllegalStateException when embedded (no server to reach)
     */
    public URI endpoint() {
        if (endpoint == null) {
            throw new IllegalStateException("DynamoDB Local is embedded: no HTTP endpoint for other processes; use --transport HTTP");
        }
        return endpoint;
    }

    public DynamoDbClient dynamo() {
        return dynamo;
    }

    public DynamoDbStreamsClient streams() {
        return streams;
    }

    /** A store table with Streams ({@code NEW_IMAGE}), as the indexer's source needs. */
    public String storeTable(String name) {
        StoreTables.ensure(dynamo, name, StreamViewType.NEW_IMAGE);
        return name;
    }

    /** An index table: the store format, Streams off. */
    public String indexTable(String name) {
        StoreTables.ensure(dynamo, name, null);
        return name;
    }

    @Override
    public void close() {
        if (embedded != null) {
            embedded.shutdown();
        }
        if (server != null) {
            dynamo.close();
            streams.close();
            try {
                server.stop();
            } catch (Exception e) {
                throw new IllegalStateException("DynamoDB Local did not stop: " + e.getMessage(), e);
            }
        }
    }
}

package io.appendsfeed.samples.bench.internal;

import io.appendsfeed.model.DynamoClients;
import io.appendsfeed.model.store.StoreTables;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;

/**
 * DynamoDB Local for one scenario: its HTTP server in memory ({@code -sharedDb}) on a free loopback
 * port, reached by normal SDK clients over HTTP, the only way another process (equinox-js, a
 * handler's JVM) can share the tables. A fresh one per scenario: its Streams calls slow down as other
 * tables' streams fill. What is measured goes through {@link #measured()}: a {@link LatencyProxy}
 * adding the round trip to AWS when one is asked for; setting up and checking go straight.
 */
public final class LocalDynamo implements AutoCloseable {

    private final DynamoDBProxyServer server;
    private final URI endpoint;
    private final LatencyProxy proxy;
    private final DynamoDbClient dynamo;
    private final DynamoDbStreamsClient streams;

    private LocalDynamo(DynamoDBProxyServer server, URI endpoint, LatencyProxy proxy) {
        this.server = server;
        this.endpoint = endpoint;
        this.proxy = proxy;
        DynamoClients.Settings settings = DynamoClients.Settings.local(endpoint).withMaxConnections(32);
        this.dynamo = DynamoClients.dynamoDb(settings);
        this.streams = DynamoClients.streams(settings);
    }

    /**
     * @param roundTripMs added to every measured call (by a proxy); 0 for none
     * @throws IllegalStateException when DynamoDB Local cannot start
     */
    public static LocalDynamo start(double roundTripMs) {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException("no free port for DynamoDB Local", e);
        }
        try {
            DynamoDBProxyServer s = ServerRunner.createServerFromCommandLineArgs(new String[] {
                "-inMemory", "-sharedDb", "-port", Integer.toString(port), "-disableTelemetry"});
            s.start();
            URI endpoint = URI.create("http://localhost:" + port);
            return new LocalDynamo(s, endpoint, roundTripMs > 0 ? LatencyProxy.to(endpoint, roundTripMs) : null);
        } catch (Exception e) {
            throw new IllegalStateException("could not start DynamoDB Local on port " + port + ": " + e.getMessage(), e);
        }
    }

    /** Straight to DynamoDB Local: for setting up and checking, never for what is timed. */
    public DynamoDbClient dynamo() {
        return dynamo;
    }

    public DynamoDbStreamsClient streams() {
        return streams;
    }

    /** DynamoDB Local's own endpoint, without the added round trip. */
    public URI endpoint() {
        return endpoint;
    }

    /** Where measured clients connect, in this process or another: the proxy when a round trip is added. */
    public URI measured() {
        return proxy != null ? proxy.endpoint() : endpoint;
    }

    /** A client of the measured endpoint, built as {@link DynamoClients} builds the indexer's (the caller closes it). */
    public DynamoDbClient measuredClient() {
        return DynamoClients.dynamoDb(DynamoClients.Settings.local(measured()));
    }

    /** A client of the measured endpoint whose every call {@code meter} meters (the caller closes it). */
    public DynamoDbClient meteredClient(Meter meter) {
        return DynamoDbClient.builder().httpClientBuilder(ApacheHttpClient.builder().maxConnections(32))
                .endpointOverride(measured()).region(DynamoClients.LOCAL_REGION).credentialsProvider(DynamoClients.LOCAL_CREDENTIALS)
                .overrideConfiguration(c -> c.addExecutionInterceptor(meter)).build();
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
        dynamo.close();
        streams.close();
        if (proxy != null) {
            proxy.close();
        }
        try {
            server.stop();
        } catch (Exception e) {
            throw new IllegalStateException("DynamoDB Local did not stop: " + e.getMessage(), e);
        }
    }
}

package io.appendsfeed.model.testing;

import io.appendsfeed.model.DynamoClients;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.util.concurrent.atomic.AtomicInteger;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;
import software.amazon.dynamodb.services.local.embedded.DynamoDBEmbedded;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;
import software.amazon.dynamodb.services.local.shared.access.AmazonDynamoDBLocal;

/**
 * One DynamoDB Local per JVM, in process, in memory, listening on a free loopback port, with
 * Streams available on every table that asks for them. Clients are built by
 * {@link DynamoClients}, the same code production uses (endpoint override, static credentials).
 *
 * <p>Obtain it through {@link LocalDynamoExtension} (parameter injection) or {@link #shared()}.
 * Every test should use {@link #freshTableName(String)} so that tests never share a table.
 */
public final class LocalDynamo {

    private static volatile LocalDynamo shared;
    private static final AtomicInteger TABLES = new AtomicInteger();

    private final DynamoDBProxyServer server;
    private final URI endpoint;
    private final DynamoDbClient dynamo;
    private final DynamoDbStreamsClient streams;
    private volatile AmazonDynamoDBLocal embedded;

    private LocalDynamo(DynamoDBProxyServer server, URI endpoint) {
        this.server = server;
        this.endpoint = endpoint;
        DynamoClients.Settings settings = settings();
        this.dynamo = DynamoClients.dynamoDb(settings);
        this.streams = DynamoClients.streams(settings);
    }

    /** The JVM-wide instance, started on first use and stopped when the JVM exits. */
    public static LocalDynamo shared() {
        LocalDynamo s = shared;
        if (s == null) {
            synchronized (LocalDynamo.class) {
                s = shared;
                if (s == null) {
                    s = start();
                    shared = s;
                }
            }
        }
        return s;
    }

    private static LocalDynamo start() {
        int port = freePort();
        try {
            DynamoDBProxyServer server = ServerRunner.createServerFromCommandLineArgs(new String[] {
                "-inMemory", "-port", Integer.toString(port), "-disableTelemetry"});
            server.start();
            LocalDynamo local = new LocalDynamo(server, URI.create("http://localhost:" + port));
            Runtime.getRuntime().addShutdownHook(new Thread(local::stop, "dynamodb-local-stop"));
            return local;
        } catch (Exception e) {
            throw new IllegalStateException("could not start DynamoDB Local on port " + port, e);
        }
    }

    private void stop() {
        try {
            server.stop();
        } catch (Exception e) {
            // the JVM is exiting; report and carry on
            System.err.println("DynamoDB Local did not stop cleanly: " + e);
        }
        AmazonDynamoDBLocal e = embedded;
        if (e != null) {
            e.shutdown();
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException("no free port for DynamoDB Local", e);
        }
    }

    /** The HTTP endpoint, e.g. {@code http://localhost:49152}. */
    public URI endpoint() {
        return endpoint;
    }

    /** Settings for {@link DynamoClients} pointing at this instance. */
    public DynamoClients.Settings settings() {
        return DynamoClients.Settings.local(endpoint);
    }

    /** A DynamoDB client over HTTP, shared; do not close it. */
    public DynamoDbClient dynamo() {
        return dynamo;
    }

    /** A DynamoDB Streams client over HTTP, shared; do not close it. */
    public DynamoDbStreamsClient streams() {
        return streams;
    }

    /** A table name no other test in this JVM has used, e.g. {@code store-17-1732350000000}. */
    public String freshTableName(String prefix) {
        return prefix + "-" + TABLES.incrementAndGet() + "-" + System.nanoTime();
    }

    /**
     * A second, embedded (no HTTP) DynamoDB Local, separate from the server, started on first use.
     * Only it can force a shard rollover ({@link AmazonDynamoDBLocal#triggerShardRollovers()}),
     * so shard-lineage tests use it; everything else should use the HTTP instance.
     */
    public AmazonDynamoDBLocal embedded() {
        AmazonDynamoDBLocal e = embedded;
        if (e == null) {
            synchronized (this) {
                e = embedded;
                if (e == null) {
                    e = DynamoDBEmbedded.create(true);
                    embedded = e;
                }
            }
        }
        return e;
    }
}

package io.appendsfeed.samples.local;

import io.appendsfeed.model.DynamoClients;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;

/**
 * DynamoDB Local in this process, in memory, serving HTTP on a port so that a second terminal
 * (the {@code feed} CLI, the AWS CLI) can look at the same tables. No AWS account, nothing
 * written to disk. It comes from the Maven classpath: its licence lets us run it, not ship it.
 */
public final class LocalDynamoServer implements AutoCloseable {

    private final DynamoDBProxyServer server;
    private final URI endpoint;

    private LocalDynamoServer(DynamoDBProxyServer server, URI endpoint) {
        this.server = server;
        this.endpoint = endpoint;
    }

    /**
     * Starts DynamoDB Local on {@code port}, or on a free port when it is 0.
     *
     * @throws IllegalStateException when it cannot start (say, the port is taken): pick another port
     */
    public static LocalDynamoServer start(int port) {
        int p = port == 0 ? freePort() : port;
        try {
            DynamoDBProxyServer server = ServerRunner.createServerFromCommandLineArgs(new String[] {
                // -sharedDb: one database whatever the caller's access key and region, so that the feed CLI, the AWS CLI
                // and any SDK with any credentials see the same tables (without it each key and region has its own)
                "-inMemory", "-sharedDb", "-port", Integer.toString(p), "-disableTelemetry"});
            server.start();
            return new LocalDynamoServer(server, URI.create("http://localhost:" + p));
        } catch (Exception e) {
            throw new IllegalStateException("could not start DynamoDB Local on port " + p
                    + (port == 0 ? "" : " (is it taken? choose another with --port, or 0 for a free one)") + ": " + e, e);
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException("no free port for DynamoDB Local: " + e.getMessage(), e);
        }
    }

    /** E.g. {@code http://localhost:8000}. */
    public URI endpoint() {
        return endpoint;
    }

    /** Client settings pointing at this server. */
    public DynamoClients.Settings settings() {
        return DynamoClients.Settings.local(endpoint);
    }

    /** Stops the server; its tables are gone. */
    @Override
    public void close() {
        try {
            server.stop();
        } catch (Exception e) {
            throw new IllegalStateException("DynamoDB Local did not stop cleanly: " + e, e);
        }
    }
}

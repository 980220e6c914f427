package io.appendsfeed.samples.todo;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The todo service over HTTP, on the JDK's own server:
 * <pre>
 * POST   /todos        {"list":"home","title":"milk"}  201 Created, Location, ETag
 * GET    /todos/{id}                                   200 + ETag | 404 unknown | 410 deleted
 * PUT    /todos/{id}   If-Match: "3"  {"title":"oat milk","completed":true}
 *                                                      200 + ETag | 428 no If-Match | 409 stale | 404 | 410
 * DELETE /todos/{id}   If-Match: "3"                   204 | 428 | 409 | 404 | 410
 * </pre>
 */
public final class TodoHttpServer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(TodoHttpServer.class);

    private final HttpServer server;
    private final ExecutorService threads;

    private TodoHttpServer(HttpServer server, ExecutorService threads) {
        this.server = server;
        this.threads = threads;
    }

    /**
     * Starts serving on {@code localhost:port} (0: a free port).
     *
     * @throws UncheckedIOException when the port cannot be bound
     */
    public static TodoHttpServer start(Todos todos, int port) {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress("localhost", port), 0);
            ExecutorService threads = Executors.newFixedThreadPool(8, r -> {
                Thread t = new Thread(r, "todo-http");
                t.setDaemon(true);
                return t;
            });
            TodoRoutes routes = new TodoRoutes(todos);
            server.createContext("/", exchange -> serve(routes, exchange));
            server.setExecutor(threads);
            server.start();
            return new TodoHttpServer(server, threads);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot serve todos on port " + port + ": " + e.getMessage(), e);
        }
    }

    public URI uri() {
        return URI.create("http://localhost:" + server.getAddress().getPort());
    }

    private static void serve(TodoRoutes routes, HttpExchange exchange) throws IOException {
        try (exchange) {
            Reply reply;
            try {
                reply = routes.route(exchange);
            } catch (RuntimeException e) {
                log.error("{} {} failed", exchange.getRequestMethod(), exchange.getRequestURI(), e);
                reply = Reply.problem(500, "internal error: " + e.getMessage());
            }
            send(exchange, reply);
        }
    }

    private static void send(HttpExchange exchange, Reply reply) throws IOException {
        for (Map.Entry<String, String> h : reply.headers().entrySet()) {
            exchange.getResponseHeaders().set(h.getKey(), h.getValue());
        }
        boolean noBody = reply.body() == null || exchange.getRequestMethod().equals("HEAD");
        exchange.sendResponseHeaders(reply.status(), noBody ? -1 : reply.body().length);
        if (!noBody) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(reply.body());
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}

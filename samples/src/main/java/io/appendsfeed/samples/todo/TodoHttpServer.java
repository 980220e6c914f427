package io.appendsfeed.samples.todo;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.appendsfeed.model.Decider.Loaded;
import io.appendsfeed.samples.eventsourcing.Json;
import io.appendsfeed.samples.eventsourcing.Outcome;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The todo service over HTTP ({@code POST /todos}; {@code GET}, {@code PUT}, {@code DELETE /todos/{id}}), on the JDK's
 * own server. A todo's ETag is its stream version in quotes ({@code "3"}): it changes with every event and only then,
 * as a strong validator must; PUT and DELETE need it in {@code If-Match}.
 */
public final class TodoHttpServer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(TodoHttpServer.class);
    private static final String COLLECTION = "/todos";
    private static final int MAX_BODY_BYTES = 64 * 1024;
    /** A version in quotes; versions start at 1. */
    private static final Pattern ETAG = Pattern.compile("\"([1-9][0-9]{0,17})\"");

    /** A todo as returned by GET, POST and PUT. */
    record Representation(String id, String list, String title, boolean completed, long version) {
        static Representation of(TodoId id, TodoState s, long version) {
            return new Representation(id.value(), s.list(), s.title(), s.completed(), version);
        }
    }

    /** The body of POST /todos. */
    record CreateRequest(String list, String title) {}

    /** The body of PUT /todos/{id}; a missing {@code completed} means false. */
    record UpdateRequest(String list, String title, Boolean completed) {}

    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Problem(String error, String currentEtag) {}

    /** A response to send: status, headers, and a body sent as JSON (null for none). */
    record Reply(int status, Object body, Map<String, String> headers) {

        static Reply problem(int status, String error, Map<String, String> headers) {
            return new Reply(status, new Problem(error, null), headers);
        }

        static Reply problem(int status, String error) {
            return problem(status, error, Map.of());
        }
    }

    private final Todos todos;
    private final HttpServer server;
    private final ExecutorService threads = Executors.newFixedThreadPool(8);

    private TodoHttpServer(Todos todos, HttpServer server) {
        this.todos = todos;
        this.server = server;
        server.createContext("/", this::serve);
        server.setExecutor(threads);
        server.start();
    }

    /** Starts serving on {@code localhost:port} (0: a free port); throws UncheckedIOException when it cannot bind it. */
    public static TodoHttpServer start(Todos todos, int port) {
        try {
            return new TodoHttpServer(todos, HttpServer.create(new InetSocketAddress("localhost", port), 0));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot serve todos on port " + port + ": " + e.getMessage(), e);
        }
    }

    public URI uri() {
        return URI.create("http://localhost:" + server.getAddress().getPort());
    }

    static String etag(long version) {
        return "\"" + version + "\"";
    }

    /**
     * What an {@code If-Match} asks for: a version, or any ({@code *}: empty).
     *
     * @return null when the header is absent
     * @throws IllegalArgumentException when it is not {@code *} or one strong ETag this service gave out (weak ones never match)
     */
    static OptionalLong parseIfMatch(String header) {
        if (header == null) {
            return null;
        }
        String h = header.trim();
        if (h.equals("*")) {
            return OptionalLong.empty();
        }
        Matcher etag = ETAG.matcher(h);
        if (!etag.matches()) {
            throw new IllegalArgumentException("If-Match must be * or one strong ETag as a GET returned it (e.g. \"3\"), was " + h);
        }
        return OptionalLong.of(Long.parseLong(etag.group(1)));
    }

    private void serve(HttpExchange exchange) throws IOException {
        try (exchange) {
            Reply reply;
            try {
                reply = route(exchange);
            } catch (IllegalArgumentException | UncheckedIOException e) { // a bad header or body
                reply = Reply.problem(400, e.getMessage());
            } catch (RuntimeException e) {
                log.error("{} {} failed", exchange.getRequestMethod(), exchange.getRequestURI(), e);
                reply = Reply.problem(500, "internal error: " + e.getMessage());
            }
            reply.headers().forEach(exchange.getResponseHeaders()::set);
            byte[] body = reply.body() == null || exchange.getRequestMethod().equals("HEAD") ? null : Json.bytes(reply.body());
            if (body != null) {
                exchange.getResponseHeaders().set("Content-Type", "application/json");
            }
            exchange.sendResponseHeaders(reply.status(), body == null ? -1 : body.length);
            if (body != null) {
                exchange.getResponseBody().write(body);
            }
        }
    }

    private Reply route(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        String method = exchange.getRequestMethod();
        if (path.equals(COLLECTION) || path.equals(COLLECTION + "/")) {
            return method.equals("POST") ? create(exchange) : Reply.problem(405, method + " is not allowed on " + path, Map.of("Allow", "POST"));
        }
        TodoId id = path.startsWith(COLLECTION + "/") ? TodoId.parseOrNull(path.substring(COLLECTION.length() + 1)) : null;
        if (id == null) {
            return Reply.problem(404, "no todo at " + path + "; todos live under " + COLLECTION + "/{id}");
        }
        return switch (method) {
            case "GET", "HEAD" -> get(id);
            case "PUT" -> change(id, exchange, false);
            case "DELETE" -> change(id, exchange, true);
            default -> Reply.problem(405, method + " is not allowed on a todo", Map.of("Allow", "GET, HEAD, PUT, DELETE"));
        };
    }

    private Reply create(HttpExchange exchange) throws IOException {
        CreateRequest body = Json.read(body(exchange), CreateRequest.class);
        Todos.Created created = todos.create(new TodoCommand.Create(body.list(), body.title()));
        return new Reply(201, Representation.of(created.id(), created.state(), created.version()),
                Map.of("Location", COLLECTION + "/" + created.id(), "ETag", etag(created.version())));
    }

    private Reply get(TodoId id) {
        Loaded<TodoState> loaded = todos.get(id);
        Map<String, String> etag = Map.of("ETag", etag(loaded.version()));
        return switch (loaded.state().status()) {
            case NONE -> Reply.problem(404, "no todo " + id);
            case DELETED -> Reply.problem(410, "todo " + id + " was deleted", etag);
            case ACTIVE -> new Reply(200, Representation.of(id, loaded.state(), loaded.version()), etag);
        };
    }

    /** PUT and DELETE: both need If-Match. */
    private Reply change(TodoId id, HttpExchange exchange, boolean delete) throws IOException {
        OptionalLong ifMatch = parseIfMatch(exchange.getRequestHeaders().getFirst("If-Match"));
        if (ifMatch == null) {
            return Reply.problem(428, "send If-Match with the ETag of the todo you read (or * to overwrite whatever is there)");
        }
        TodoCommand command;
        if (delete) {
            command = new TodoCommand.Delete();
        } else {
            UpdateRequest body = Json.read(body(exchange), UpdateRequest.class);
            command = new TodoCommand.Update(body.list(), body.title(), Boolean.TRUE.equals(body.completed()));
        }
        Outcome<TodoState, TodoEvent> outcome = todos.change(id, ifMatch, command);
        if (outcome instanceof Outcome.Committed<TodoState, TodoEvent> c) {
            return delete ? new Reply(204, null, Map.of())
                    : new Reply(200, Representation.of(id, c.state(), c.version()), Map.of("ETag", etag(c.version())));
        }
        if (outcome instanceof Outcome.Stale<TodoState, TodoEvent> s) {
            if (s.actualVersion() == 0) {
                return Reply.problem(404, "no todo " + id);
            }
            String current = etag(s.actualVersion());
            return new Reply(409, new Problem("todo " + id + " changed since you read it (you sent " + etag(s.expectedVersion())
                    + ", it is now " + current + "): GET it again, then retry", current), Map.of("ETag", current));
        }
        Outcome.Rejected<TodoState, TodoEvent> r = (Outcome.Rejected<TodoState, TodoEvent>) outcome;
        return switch (r.state().status()) {
            case NONE -> Reply.problem(404, "no todo " + id);
            case DELETED -> Reply.problem(410, "todo " + id + " was deleted");
            case ACTIVE -> Reply.problem(422, r.reason());
        };
    }

    /** @throws IllegalArgumentException when the body is empty or too large */
    private static byte[] body(HttpExchange exchange) throws IOException {
        try (InputStream in = exchange.getRequestBody()) {
            byte[] bytes = in.readNBytes(MAX_BODY_BYTES + 1);
            if (bytes.length == 0 || bytes.length > MAX_BODY_BYTES) {
                throw new IllegalArgumentException("the request needs a JSON body of at most " + MAX_BODY_BYTES + " bytes");
            }
            return bytes;
        }
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}

package io.appendsfeed.samples.todo;

import com.sun.net.httpserver.HttpExchange;
import io.appendsfeed.samples.eventsourcing.Json;
import io.appendsfeed.model.Decider.Loaded;
import io.appendsfeed.samples.eventsourcing.Outcome;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/** Maps requests to the {@link Todos} service and its outcomes to HTTP statuses. */
final class TodoRoutes {

    private static final String COLLECTION = "/todos";
    private static final int MAX_BODY_BYTES = 64 * 1024;

    private final Todos todos;

    TodoRoutes(Todos todos) {
        this.todos = todos;
    }

    Reply route(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        String method = exchange.getRequestMethod();
        if (path.equals(COLLECTION) || path.equals(COLLECTION + "/")) {
            return method.equals("POST") ? create(exchange) : Reply.problem(405, method + " is not allowed on " + path).header("Allow", "POST");
        }
        if (!path.startsWith(COLLECTION + "/")) {
            return Reply.problem(404, "no resource at " + path + "; todos live under " + COLLECTION);
        }
        TodoId id = TodoId.parseOrNull(path.substring(COLLECTION.length() + 1));
        if (id == null) {
            return Reply.problem(404, "no todo at " + path);
        }
        try {
            return switch (method) {
                case "GET", "HEAD" -> get(id);
                case "PUT" -> change(id, exchange, false);
                case "DELETE" -> change(id, exchange, true);
                default -> Reply.problem(405, method + " is not allowed on a todo").header("Allow", "GET, HEAD, PUT, DELETE");
            };
        } catch (IllegalArgumentException | UncheckedIOException e) {
            return Reply.problem(400, e.getMessage());
        }
    }

    private Reply create(HttpExchange exchange) throws IOException {
        TodoCommand.Create command;
        try {
            TodoJson.CreateRequest body = Json.read(body(exchange), TodoJson.CreateRequest.class);
            command = new TodoCommand.Create(body.list(), body.title());
        } catch (IllegalArgumentException | UncheckedIOException e) {
            return Reply.problem(400, e.getMessage() + "; send {\"list\":\"home\",\"title\":\"milk\"}");
        }
        Todos.Created created = todos.create(command);
        return Reply.json(201, TodoJson.Representation.of(created.id(), created.state(), created.version()))
                .header("Location", COLLECTION + "/" + created.id())
                .header("ETag", ETags.of(created.version()));
    }

    private Reply get(TodoId id) {
        Loaded<TodoState> loaded = todos.get(id);
        return switch (loaded.state().status()) {
            case NONE -> Reply.problem(404, "no todo " + id);
            case DELETED -> Reply.problem(410, "todo " + id + " was deleted").header("ETag", ETags.of(loaded.version()));
            case ACTIVE -> Reply.json(200, TodoJson.Representation.of(id, loaded.state(), loaded.version()))
                    .header("ETag", ETags.of(loaded.version()));
        };
    }

    /** PUT and DELETE: both need If-Match. */
    private Reply change(TodoId id, HttpExchange exchange, boolean delete) throws IOException {
        ETags.IfMatch ifMatch = ETags.parseIfMatch(exchange.getRequestHeaders().getFirst("If-Match"));
        if (ifMatch == null) {
            return Reply.problem(428, "send If-Match with the ETag of the todo you read (or * to overwrite whatever is there)");
        }
        TodoCommand command;
        if (delete) {
            command = new TodoCommand.Delete();
        } else {
            TodoJson.UpdateRequest body = Json.read(body(exchange), TodoJson.UpdateRequest.class);
            command = new TodoCommand.Update(body.list(), body.title(), Boolean.TRUE.equals(body.completed()));
        }
        Outcome<TodoState, TodoEvent> outcome = todos.change(id, ifMatch.version(), command);
        if (outcome instanceof Outcome.Committed<TodoState, TodoEvent> c) {
            return delete
                    ? Reply.empty(204)
                    : Reply.json(200, TodoJson.Representation.of(id, c.state(), c.version())).header("ETag", ETags.of(c.version()));
        }
        if (outcome instanceof Outcome.Stale<TodoState, TodoEvent> s) {
            if (s.actualVersion() == 0) {
                return Reply.problem(404, "no todo " + id);
            }
            String current = ETags.of(s.actualVersion());
            return Reply.json(409, new TodoJson.Problem("todo " + id + " changed since you read it (you sent "
                    + ETags.of(s.expectedVersion()) + ", it is now " + current + "): GET it again, then retry", current))
                    .header("ETag", current);
        }
        Outcome.Rejected<TodoState, TodoEvent> r = (Outcome.Rejected<TodoState, TodoEvent>) outcome;
        return switch (r.state().status()) {
            case NONE -> Reply.problem(404, "no todo " + id);
            case DELETED -> Reply.problem(410, "todo " + id + " was deleted");
            case ACTIVE -> Reply.problem(422, r.reason());
        };
    }

    private static byte[] body(HttpExchange exchange) throws IOException {
        try (InputStream in = exchange.getRequestBody()) {
            byte[] bytes = in.readNBytes(MAX_BODY_BYTES + 1);
            if (bytes.length > MAX_BODY_BYTES) {
                throw new IllegalArgumentException("body over " + MAX_BODY_BYTES + " bytes");
            }
            if (bytes.length == 0) {
                throw new IllegalArgumentException("the request needs a JSON body");
            }
            return bytes;
        }
    }
}

package io.appendsfeed.samples.todo;

import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.samples.eventsourcing.CommandDecision;
import io.appendsfeed.samples.eventsourcing.JsonEventCodec;
import io.appendsfeed.model.Decider.Loaded;
import io.appendsfeed.samples.eventsourcing.Outcome;
import io.appendsfeed.samples.eventsourcing.Transactor;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/** The todo service: a client changes a todo only at the version (the HTTP ETag) it read. Thread-safe. */
public final class Todos {

    public static final String SNAPSHOT_TYPE = "Snapshot.v1";

    private final Transactor<TodoState, TodoEvent> transactor;

    public Todos(StoreClient store) {
        this.transactor = new Transactor<>(store, JsonEventCodec.forSealed(TodoEvent.class)
                .category(TodoState.INITIAL, TodoState::evolve, TodoState.class, SNAPSHOT_TYPE));
    }

    /** Creates a todo under a new id: the write expects no stream, so an id is never reused. */
    public Created create(TodoCommand.Create command) {
        TodoId id = TodoId.random();
        Outcome<TodoState, TodoEvent> outcome = transactor.transactAt(id.stream(), 0, s -> decide(s, command));
        if (outcome instanceof Outcome.Committed<TodoState, TodoEvent> c) {
            return new Created(id, c.version(), c.state());
        }
        // a random 128-bit id already taken: something else writes these streams
        throw new IllegalStateException("todo id " + id + " is taken: " + outcome);
    }

    public record Created(TodoId id, long version, TodoState state) {}

    /** The todo and its version (0 and {@link TodoState.Status#NONE} when unknown). Strongly consistent: an ETag must not go back. */
    public Loaded<TodoState> get(TodoId id) {
        return transactor.load(id.stream(), true);
    }

    /** Updates or deletes the todo if it is at {@code ifMatch} (empty: whatever its version). */
    public Outcome<TodoState, TodoEvent> change(TodoId id, OptionalLong ifMatch, TodoCommand command) {
        if (command instanceof TodoCommand.Create) {
            throw new IllegalArgumentException("use create() to create a todo");
        }
        return ifMatch.isPresent()
                ? transactor.transactAt(id.stream(), ifMatch.getAsLong(), s -> decide(s, command))
                : transactor.transact(id.stream(), s -> decide(s, command));
    }

    /** A todo's rules, pure. */
    public static CommandDecision<TodoEvent> decide(TodoState state, TodoCommand command) {
        if (command instanceof TodoCommand.Create c) {
            return state.status() == TodoState.Status.NONE
                    ? CommandDecision.accept(new TodoEvent.Created(c.list(), c.title()))
                    : CommandDecision.reject("todo already exists");
        }
        if (state.status() == TodoState.Status.NONE) {
            return CommandDecision.reject("no such todo");
        }
        if (state.status() == TodoState.Status.DELETED) {
            return CommandDecision.reject("todo was deleted");
        }
        if (command instanceof TodoCommand.Delete) {
            return CommandDecision.accept(new TodoEvent.Deleted());
        }
        TodoCommand.Update u = (TodoCommand.Update) command;
        if (u.list() != null && !u.list().equals(state.list())) {
            return CommandDecision.reject("a todo cannot move to another list: it is in '" + state.list() + "'");
        }
        List<TodoEvent> events = new ArrayList<>();
        if (!u.title().equals(state.title())) {
            events.add(new TodoEvent.Retitled(u.title()));
        }
        if (u.completed() != state.completed()) {
            events.add(u.completed() ? new TodoEvent.Completed() : new TodoEvent.Reopened());
        }
        return new CommandDecision.Accept<>(events); // none when nothing changes: the version stays
    }
}

package io.appendsfeed.samples.todo;

import io.appendsfeed.samples.eventsourcing.Decision;
import java.util.ArrayList;
import java.util.List;

/** A todo's rules, pure. */
public final class TodoDecider {

    private TodoDecider() {}

    public static Decision<TodoEvent> decide(TodoState state, TodoCommand command) {
        if (command instanceof TodoCommand.Create c) {
            return state.status() == TodoState.Status.NONE
                    ? Decision.accept(new TodoEvent.Created(c.list(), c.title()))
                    : Decision.reject("todo already exists");
        }
        if (state.status() == TodoState.Status.NONE) {
            return Decision.reject("no such todo");
        }
        if (state.status() == TodoState.Status.DELETED) {
            return Decision.reject("todo was deleted");
        }
        if (command instanceof TodoCommand.Delete) {
            return Decision.accept(new TodoEvent.Deleted());
        }
        TodoCommand.Update u = (TodoCommand.Update) command;
        if (u.list() != null && !u.list().equals(state.list())) {
            return Decision.reject("a todo cannot move to another list: it is in '" + state.list() + "'");
        }
        List<TodoEvent> events = new ArrayList<>();
        if (!u.title().equals(state.title())) {
            events.add(new TodoEvent.Retitled(u.title()));
        }
        if (u.completed() != state.completed()) {
            events.add(u.completed() ? new TodoEvent.Completed() : new TodoEvent.Reopened());
        }
        return new Decision.Accept<>(events); // none when nothing changes: the version stays
    }
}

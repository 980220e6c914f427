package io.appendsfeed.samples.todo;

import io.appendsfeed.samples.eventsourcing.CommandDecision;
import java.util.ArrayList;
import java.util.List;

/** A todo's rules, pure. */
public final class TodoDecider {

    private TodoDecider() {}

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

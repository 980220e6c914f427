package io.appendsfeed.samples.todo;

/**
 * The fold of a todo's events; also its snapshot (the Tip's unfold): change
 * {@link Todos#SNAPSHOT_TYPE} when changing its shape.
 */
public record TodoState(Status status, String list, String title, boolean completed) {

    public enum Status { NONE, ACTIVE, DELETED }

    public static final TodoState INITIAL = new TodoState(Status.NONE, null, null, false);

    public TodoState evolve(TodoEvent event) {
        if (event instanceof TodoEvent.Created c) {
            return new TodoState(Status.ACTIVE, c.list(), c.title(), false);
        }
        if (event instanceof TodoEvent.Retitled r) {
            return new TodoState(status, list, r.title(), completed);
        }
        if (event instanceof TodoEvent.Completed) {
            return new TodoState(status, list, title, true);
        }
        if (event instanceof TodoEvent.Reopened) {
            return new TodoState(status, list, title, false);
        }
        return new TodoState(Status.DELETED, list, title, completed);
    }
}

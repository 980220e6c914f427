package io.appendsfeed.samples.todo;

/** What happens to a todo. Deleting is an event too: the history stays. */
public sealed interface TodoEvent {

    record Created(String list, String title) implements TodoEvent {}

    record Retitled(String title) implements TodoEvent {}

    record Completed() implements TodoEvent {}

    record Reopened() implements TodoEvent {}

    record Deleted() implements TodoEvent {}
}

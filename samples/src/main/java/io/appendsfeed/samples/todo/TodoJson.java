package io.appendsfeed.samples.todo;

import com.fasterxml.jackson.annotation.JsonInclude;

/** The JSON the HTTP API speaks. */
final class TodoJson {

    private TodoJson() {}

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
}

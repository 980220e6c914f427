package io.appendsfeed.samples.todo;

/** What a client asks of a todo. */
public sealed interface TodoCommand {

    record Create(String list, String title) implements TodoCommand {
        public Create {
            requireText("list", list);
            requireText("title", title);
        }
    }

    /**
     * Sets the title and whether it is done (the whole changeable part of a todo, as an HTTP PUT
     * does). {@code list} is optional (null); when given it must be the todo's list.
     */
    record Update(String list, String title, boolean completed) implements TodoCommand {
        public Update {
            requireText("title", title);
        }
    }

    record Delete() implements TodoCommand {}

    private static void requireText(String field, String value) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("'" + field + "' must be a non-empty string");
        }
        if (value.length() > 500) {
            throw new IllegalArgumentException("'" + field + "' must be at most 500 characters, was " + value.length());
        }
    }
}

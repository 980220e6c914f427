package io.appendsfeed.samples.todo;

import io.appendsfeed.model.StreamName;
import java.util.UUID;
import java.util.regex.Pattern;

/** A todo's id; its stream is {@code Todo-<id>}. */
public record TodoId(String value) {

    public static final String CATEGORY = "Todo";
    private static final Pattern VALID = Pattern.compile("[a-z0-9]{1,64}");

    public TodoId {
        if (value == null || !VALID.matcher(value).matches()) {
            throw new IllegalArgumentException("todo id '" + value + "' is not valid: use 1 to 64 lower-case letters or digits");
        }
    }

    public static TodoId random() {
        return new TodoId(UUID.randomUUID().toString().replace("-", ""));
    }

    /** The id, or null when the text is not one (an unknown resource, not an error). */
    public static TodoId parseOrNull(String text) {
        return text != null && VALID.matcher(text).matches() ? new TodoId(text) : null;
    }

    public StreamName stream() {
        return StreamName.of(CATEGORY, value);
    }

    @Override
    public String toString() {
        return value;
    }
}

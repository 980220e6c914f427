package io.appendsfeed.samples.todo;

import java.util.OptionalLong;

/**
 * A todo's ETag is its stream version in quotes, {@code "3"}: the version changes with every
 * event and only then, which is exactly what a strong validator must do.
 */
final class ETags {

    private ETags() {}

    static String of(long version) {
        return "\"" + version + "\"";
    }

    /** What an {@code If-Match} asks for: a version, or any ({@code *}). */
    record IfMatch(OptionalLong version) {}

    /**
     * @return the condition, or null when the header is absent
     * @throws IllegalArgumentException saying what a valid header looks like
     */
    static IfMatch parseIfMatch(String header) {
        if (header == null) {
            return null;
        }
        String h = header.trim();
        if (h.equals("*")) {
            return new IfMatch(OptionalLong.empty());
        }
        if (h.startsWith("W/")) {
            throw new IllegalArgumentException("If-Match needs a strong ETag; weak ones (W/...) never match. Send the ETag from the last GET");
        }
        if (h.length() < 3 || h.charAt(0) != '"' || h.charAt(h.length() - 1) != '"') {
            throw new IllegalArgumentException("If-Match must be one quoted ETag as a GET returned it (e.g. \"3\") or *, was " + h);
        }
        try {
            long v = Long.parseLong(h.substring(1, h.length() - 1));
            if (v < 1) {
                throw new IllegalArgumentException("no todo has the ETag " + h + ": versions start at \"1\"");
            }
            return new IfMatch(OptionalLong.of(v));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("If-Match " + h + " is not an ETag this service gave out (they look like \"3\")", e);
        }
    }
}

package io.appendsfeed.model;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * {@code Category-Id}: the category is everything before the first {@code -}, the id everything after it; both
 * non-empty. Names starting with {@code $} are appendsfeed's own streams and are never indexed. At most
 * {@value #MAX_UTF8_BYTES} bytes (DynamoDB allows 2048 in {@code p}), so that keys and spans stay small.
 */
public record StreamName(String value) implements Comparable<StreamName> {

    public static final int MAX_UTF8_BYTES = 1024;
    public static final String RESERVED_PREFIX = "$";

    public StreamName {
        Objects.requireNonNull(value, "stream name");
        String problem = problem(value);
        if (problem != null) {
            throw new IllegalArgumentException("invalid stream name '" + abbreviate(value) + "': " + problem);
        }
    }

    public static StreamName of(String category, String id) {
        return new StreamName(category + "-" + id);
    }

    public static StreamName parse(String value) {
        return new StreamName(value);
    }

    /** Why {@code value} is not a valid stream name, or null when it is. */
    public static String problem(String value) {
        if (value == null || value.isEmpty()) {
            return "it is empty; use the form Category-Id, e.g. Account-42";
        }
        int dash = value.indexOf('-');
        if (dash < 0) {
            return "it has no '-'; use the form Category-Id, e.g. Account-42";
        }
        if (dash == 0) {
            return "the category (before the first '-') is empty; use the form Category-Id, e.g. Account-42";
        }
        if (dash == value.length() - 1) {
            return "the id (after the first '-') is empty; use the form Category-Id, e.g. Account-42";
        }
        // a char is at most 3 bytes of UTF-8 (a surrogate pair 4 for 2 chars): short names need no encoding
        int bytes = value.length() * 3 <= MAX_UTF8_BYTES ? 0 : value.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > MAX_UTF8_BYTES) {
            return "it is " + bytes + " bytes of UTF-8, over the limit of " + MAX_UTF8_BYTES + "; use a shorter id";
        }
        for (int k = 0; k < value.length(); k++) {
            char ch = value.charAt(k);
            if (Character.isISOControl(ch)) {
                return "it contains the control character U+" + String.format("%04X", (int) ch) + " at position " + k;
            }
            if (Character.isSurrogate(ch)) {
                boolean paired = Character.isHighSurrogate(ch) && k + 1 < value.length()
                        && Character.isLowSurrogate(value.charAt(k + 1));
                if (!paired) {
                    return "it contains an unpaired surrogate at position " + k + " (not valid UTF-16 text)";
                }
                k++;
            }
        }
        return null;
    }

    public String category() {
        return value.substring(0, value.indexOf('-'));
    }

    public String id() {
        return value.substring(value.indexOf('-') + 1);
    }

    public boolean isReserved() {
        return value.startsWith(RESERVED_PREFIX);
    }

    /**
     * Written out: the record's generated methods (an {@code invokedynamic} per call) cost several times more in
     * C1-compiled code, and every map on the indexer's path is keyed by names.
     */
    @Override
    public boolean equals(Object o) {
        return o == this || o instanceof StreamName other && value.equals(other.value);
    }

    @Override
    public int hashCode() {
        return value.hashCode();
    }

    @Override
    public int compareTo(StreamName o) {
        return value.compareTo(o.value);
    }

    @Override
    public String toString() {
        return value;
    }

    private static String abbreviate(String s) {
        return s.length() <= 80 ? s : s.substring(0, 77) + "...";
    }
}

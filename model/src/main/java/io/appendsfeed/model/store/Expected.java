package io.appendsfeed.model.store;

/** The condition an append is made under. */
public sealed interface Expected {

    /** The stream's version ({@code n}) must be exactly this; 0 means the stream must not exist. */
    record Version(long version) implements Expected {
        public Version {
            if (version < 0) {
                throw new IllegalArgumentException("expected version must be >= 0, was " + version);
            }
        }
    }

    /** The Tip's {@code etag} must be this (it changes on every write, unfold-only writes too). */
    record Etag(String etag) implements Expected {
        public Etag {
            if (etag == null || etag.isEmpty()) {
                throw new IllegalArgumentException("expected etag must be non-empty");
            }
        }
    }

    /** No condition: append after whatever is there (still one atomic write per attempt). */
    record Any() implements Expected {}

    /** No Tip at all: stricter than {@code version(0)}, which an unfold-only Tip satisfies; makes a first unfold write exclusive. */
    record Absent() implements Expected {}

    static Expected version(long version) {
        return new Version(version);
    }

    static Expected noStream() {
        return new Version(0);
    }

    static Expected etag(String etag) {
        return new Etag(etag);
    }

    static Expected any() {
        return new Any();
    }

    static Expected absent() {
        return new Absent();
    }
}

package io.appendsfeed.model.store;

/** The outcome of an append; a conflict carries the actual version, from the failed condition itself. */
public sealed interface AppendResult {

    /** The write happened. {@code version} is the stream's new version; {@code calved} when the Tip's events moved to a calf. */
    record Written(long version, String etag, boolean calved) implements AppendResult {}

    /** Another writer got there first ({@code actualVersion} 0 when the stream does not exist; after a calf-first append, a lower bound). */
    record Conflict(long actualVersion, String actualEtag) implements AppendResult {}
}

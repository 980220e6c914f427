package io.appendsfeed.reader.internal;

/** How one {@link StreamCall} (a call of the handler for one stream, or a replay) ended. */
sealed interface StreamCallOutcome {

    /** The stream is handled up to (not including) {@code nextIndex}. */
    record Done(long nextIndex) implements StreamCallOutcome {}

    /** A replay found nothing more in the store table. */
    record ReplayDone() implements StreamCallOutcome {}

    /** The call failed (the handler threw, or the bodies could not be loaded). */
    record Failed(Exception error) implements StreamCallOutcome {}
}

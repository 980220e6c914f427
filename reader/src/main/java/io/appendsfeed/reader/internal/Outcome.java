package io.appendsfeed.reader.internal;

/** How a handler call ended. */
sealed interface Outcome {

    /** The stream is handled up to (not including) {@code nextIndex}. */
    record Done(long nextIndex) implements Outcome {}

    /** A replay found nothing more in the store table. */
    record ReplayDone() implements Outcome {}

    /** The call failed (the handler threw, or the bodies could not be loaded). */
    record Failed(Exception error) implements Outcome {}
}

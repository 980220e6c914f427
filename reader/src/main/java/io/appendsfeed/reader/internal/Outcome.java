package io.appendsfeed.reader.internal;

import io.appendsfeed.reader.ParkedStream;

/** How a handler call ended. */
sealed interface Outcome {

    /** The stream is handled up to (not including) {@code nextIndex}. */
    record Done(long nextIndex) implements Outcome {}

    /** A replay found nothing more in the store table. */
    record ReplayDone() implements Outcome {}

    record Failed(Exception error) implements Outcome {}

    /** Failed too often; durably recorded as parked. */
    record Parked(ParkedStream parked) implements Outcome {}
}

package io.appendsfeed.reader.internal;

import io.appendsfeed.model.StreamName;
import java.time.Instant;
import java.util.HashSet;
import java.util.Set;

/**
 * An open partition in the scheduler: its checkpoint math, its streams, and a generation that
 * changes each time it is opened, so that calls begun under an earlier lease do not count.
 */
final class Slot {
    final Progress progress;
    final int generation;
    final Instant notBefore;
    final Set<StreamName> streams = new HashSet<>();

    Slot(Progress progress, int generation, Instant notBefore) {
        this.progress = progress;
        this.generation = generation;
        this.notBefore = notBefore;
    }
}

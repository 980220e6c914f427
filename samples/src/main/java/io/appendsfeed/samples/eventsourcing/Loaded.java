package io.appendsfeed.samples.eventsourcing;

/** A stream's state folded from its snapshot and the events after it, at {@code version} (0: no stream). */
public record Loaded<S>(S state, long version) {}

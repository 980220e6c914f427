package io.appendsfeed.model.store;

import java.time.Instant;

/** An unfold read back from a Tip: {@code index} is the stream version it was written at. */
public record StoredUnfold(long index, Instant timestamp, String type, byte[] data, byte[] meta) {}

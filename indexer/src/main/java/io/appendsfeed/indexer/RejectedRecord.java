package io.appendsfeed.indexer;

import java.util.Objects;

/**
 * A record the indexer cannot read (not of the store format, or from a stream without new images).
 * Never skipped silently: the batch stops before it and the outcome names it.
 *
 * @param sequenceNumber the record's sequence number
 * @param key the item key, e.g. {@code p=Account-42, i=2147483647}
 * @param reason what is wrong and what to do
 */
public record RejectedRecord(String sequenceNumber, String key, String reason) {

    public RejectedRecord {
        Objects.requireNonNull(sequenceNumber, "sequenceNumber");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(reason, "reason");
    }

    @Override
    public String toString() {
        return "record " + sequenceNumber + " (" + key + ") rejected: " + reason;
    }
}

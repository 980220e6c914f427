package io.appendsfeed.model.store;

import java.time.Clock;
import java.util.Objects;

/**
 * Configuration of a {@link StoreClient}.
 *
 * @param tipMaxBytes when the Tip's events would pass this many bytes, they move to a calf
 * @param tipMaxEvents when the Tip would hold more events than this, they move to a calf
 * @param compress write bodies deflated (encoding 1) when that saves bytes
 * @param reservedStreams allow {@code $} streams: only the index table's client sets this
 * @param clock stamps events and unfolds without a timestamp
 */
public record StoreConfig(String table, int tipMaxBytes, int tipMaxEvents, boolean compress, boolean reservedStreams,
                          int queryPageItems, CapacityMeter meter, Clock clock) {

    public static final int TIP_MAX_BYTES = 32 * 1024;
    /** DynamoDB's limit per item: 400 × 1024 bytes of names and values. */
    public static final int ITEM_MAX_BYTES = 400 * 1024;
    /** How many streams' Tips (about 200 bytes each) a client remembers, so that an append need not read the Tip first. */
    public static final int TIP_CACHE_STREAMS = 4096;

    public StoreConfig {
        if (table == null || table.isBlank()) {
            throw new IllegalArgumentException("table name must be non-empty");
        }
        if (tipMaxBytes < 1 || tipMaxBytes > ITEM_MAX_BYTES) {
            throw new IllegalArgumentException("tipMaxBytes must be in [1, " + ITEM_MAX_BYTES + "], was " + tipMaxBytes);
        }
        if (tipMaxEvents < 1) {
            throw new IllegalArgumentException("tipMaxEvents must be >= 1, was " + tipMaxEvents);
        }
        if (queryPageItems < 1) {
            throw new IllegalArgumentException("queryPageItems must be >= 1, was " + queryPageItems);
        }
        Objects.requireNonNull(meter, "meter");
        Objects.requireNonNull(clock, "clock");
    }

    public static Builder builder(String table) {
        return new Builder(table);
    }

    public static final class Builder {
        private final String table;
        private int tipMaxBytes = TIP_MAX_BYTES;
        private int tipMaxEvents = Integer.MAX_VALUE;
        private boolean compress = true;
        private boolean reservedStreams = false;
        private int queryPageItems = 100;
        private CapacityMeter meter = CapacityMeter.NONE;
        private Clock clock = Clock.systemUTC();

        private Builder(String table) {
            this.table = table;
        }

        public Builder tipMaxBytes(int v) { this.tipMaxBytes = v; return this; }
        public Builder tipMaxEvents(int v) { this.tipMaxEvents = v; return this; }
        public Builder compress(boolean v) { this.compress = v; return this; }
        public Builder reservedStreams(boolean v) { this.reservedStreams = v; return this; }
        public Builder queryPageItems(int v) { this.queryPageItems = v; return this; }
        public Builder meter(CapacityMeter v) { this.meter = v; return this; }
        public Builder clock(Clock v) { this.clock = v; return this; }

        public StoreConfig build() {
            return new StoreConfig(table, tipMaxBytes, tipMaxEvents, compress, reservedStreams, queryPageItems, meter, clock);
        }
    }
}

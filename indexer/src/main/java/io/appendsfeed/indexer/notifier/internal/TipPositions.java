package io.appendsfeed.indexer.notifier.internal;

import io.appendsfeed.indexer.ChangeRecord;
import io.appendsfeed.indexer.RejectedRecord;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.AppendsEpoch.EpochEvent;
import io.appendsfeed.model.feed.FeedNotification;
import io.appendsfeed.model.feed.FeedStreams;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.store.StoreItems;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * From the index table's Streams records to the furthest position each partition's feed reached.
 * Only writes of an epoch's Tip ({@code $AppendsEpoch-<p>_<e>}, {@code i = 2147483647}) count; the
 * position comes from the Tip's {@code n} alone (never from the events it carries, which a writer may
 * have moved to calves): {@code epoch × 1,000,000 + n}, or the next epoch's start when the last type
 * in {@code c} is {@code Closed}. Everything else in the index table (calves, {@code $AppendsIndex-0},
 * checkpoints and leases, parked streams, the poller's positions, rejected records, removals) is
 * ignored, so reactors are never woken by their own commits. Pure.
 */
public final class TipPositions {

    private TipPositions() {}

    /**
     * @param reached per partition, the highest position of the batch
     * @param epochTips records that were writes of an epoch's Tip
     * @param ignored records of anything else
     * @param rejected records of an epoch's Tip that cannot be read, with why
     */
    public record Reading(Map<PartitionId, Checkpoint> reached, int epochTips, int ignored, List<RejectedRecord> rejected) {
        public Reading {
            reached = Collections.unmodifiableMap(new TreeMap<>(reached));
            rejected = List.copyOf(rejected);
        }

        /** One notification per partition, in partition order. */
        public List<FeedNotification> notifications() {
            return reached.entrySet().stream().map(e -> new FeedNotification(e.getKey(), e.getValue())).toList();
        }
    }

    public static Reading read(List<ChangeRecord> records) {
        Map<PartitionId, Checkpoint> reached = new TreeMap<>();
        List<RejectedRecord> rejected = new ArrayList<>();
        int tips = 0;
        int ignored = 0;
        for (ChangeRecord r : records) {
            try {
                FeedNotification at = position(r);
                if (at == null) {
                    ignored++;
                } else {
                    tips++;
                    reached.merge(at.partition(), at.position(), (a, b) -> a.compareTo(b) >= 0 ? a : b);
                }
            } catch (Bad bad) {
                rejected.add(new RejectedRecord(r.sequenceNumber(), r.describeKey(), bad.getMessage()));
            }
        }
        return new Reading(reached, tips, ignored, rejected);
    }

    /** The position an epoch Tip's write shows, or null when the record is not one. */
    static FeedNotification position(ChangeRecord r) {
        if ("REMOVE".equals(r.eventName())) {
            return null;
        }
        AttributeValue p = r.keys().get("p");
        AttributeValue i = r.keys().get("i");
        if (p == null || p.s() == null || !p.s().startsWith(FeedStreams.EPOCH_CATEGORY + "-")) {
            return null;
        }
        if (i == null || i.n() == null || !i.n().equals(Long.toString(StoreItems.TIP_INDEX))) {
            return null; // a calf of an epoch
        }
        FeedStreams.EpochAddress epoch = epoch(p.s());
        if (!"INSERT".equals(r.eventName()) && !"MODIFY".equals(r.eventName())) {
            throw new Bad("event name '" + r.eventName() + "' is none of INSERT, MODIFY, REMOVE");
        }
        Map<String, AttributeValue> image = r.newImage();
        if (image == null) {
            throw new Bad("the record has no new image (stream view type " + r.viewType() + "); turn the index table's"
                    + " stream on with NEW_IMAGE (or NEW_AND_OLD_IMAGES)");
        }
        AttributeValue n = image.get("n");
        long version;
        try {
            version = n == null || n.n() == null ? -1 : Long.parseLong(n.n());
        } catch (NumberFormatException e) {
            version = -1;
        }
        if (version < 0 || version > Checkpoint.EPOCH_SIZE) {
            throw new Bad("attribute n of the epoch Tip is " + (n == null ? "missing" : n)
                    + "; it must be a number of epoch events from 0 to " + Checkpoint.EPOCH_SIZE);
        }
        AttributeValue c = image.get("c");
        if (c != null && !c.hasL()) {
            throw new Bad("attribute c of the epoch Tip is " + c + ", not a list of event types");
        }
        // the types as the Lambda reader delivers them (read when asked for), or from c
        List<String> types = r.eventTypes() != null ? r.eventTypes() : c == null ? List.of() : c.l().stream().map(AttributeValue::s).toList();
        boolean closed;
        try {
            closed = !types.isEmpty() && EpochEvent.CLOSED.equals(types.get(types.size() - 1));
        } catch (IllegalArgumentException notAType) {
            throw new Bad(notAType.getMessage());
        }
        Checkpoint position = closed || version == Checkpoint.EPOCH_SIZE
                ? Checkpoint.of(epoch.epoch(), 0).nextEpoch()
                : Checkpoint.of(epoch.epoch(), version);
        return new FeedNotification(epoch.partition(), position);
    }

    private static FeedStreams.EpochAddress epoch(String p) {
        String problem = StreamName.problem(p);
        FeedStreams.EpochAddress epoch;
        try {
            epoch = problem == null ? FeedStreams.parseEpoch(StreamName.parse(p)) : null;
        } catch (NumberFormatException e) {
            epoch = null;
        }
        if (epoch == null) {
            throw new Bad("key p '" + p + "' is not an epoch stream name $AppendsEpoch-<partition>_<epoch>");
        }
        return epoch;
    }

    /** What is wrong with one record; becomes a {@link RejectedRecord}. */
    private static final class Bad extends RuntimeException {
        Bad(String message) {
            super(message, null, false, false);
        }
    }
}

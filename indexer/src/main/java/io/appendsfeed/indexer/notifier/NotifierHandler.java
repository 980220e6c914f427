package io.appendsfeed.indexer.notifier;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import io.appendsfeed.indexer.ChangeRecord;
import io.appendsfeed.indexer.BatchOutcome.RejectedRecord;
import io.appendsfeed.indexer.lambda.LambdaEvent;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.AppendsEpoch.EpochEvent;
import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.FeedNotification;
import io.appendsfeed.model.feed.FeedStreams;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.store.StoreItems;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The notifier Lambda, mapped to the index table's own stream (NEW_IMAGE): publishes one notification per
 * partition whose epoch Tip the batch wrote, at the batch's highest position, reading no table. The position
 * comes from the Tip's {@code n} alone (a writer may have moved the events to calves): {@code epoch × 1,000,000
 * + n}, or the next epoch's start when the last type in {@code c} is {@code Closed}. Every other write to the
 * index table is ignored, so reactors are never woken by their own commits. A failed publish fails the
 * invocation, so that Lambda delivers the batch again.
 */
public final class NotifierHandler implements RequestStreamHandler {

    private static final Logger LOG = LoggerFactory.getLogger(NotifierHandler.class);

    /** What one batch gave: a notification per partition whose epoch Tip was written, in partition order. */
    public record Outcome(List<FeedNotification> published, int records, int epochTips, int ignored, List<RejectedRecord> rejected) {
        public Outcome {
            published = List.copyOf(published);
            rejected = List.copyOf(rejected);
        }
    }

    /** Records of epoch Tips could not be read; thrown after the other records' notifications were published. */
    public static final class UnreadableEpochTipsException extends RuntimeException {
        private final List<RejectedRecord> rejected;

        public UnreadableEpochTipsException(List<RejectedRecord> rejected) {
            super(rejected.size() + " epoch Tip record(s) could not be read: " + rejected);
            this.rejected = List.copyOf(rejected);
        }

        public List<RejectedRecord> rejected() { return rejected; }
    }

    /** Where the notifier sends its messages: {@link SnsPublisher}, or a test's. */
    public interface Publisher {
        /** Sends each notification as one message, at least once. @throws RuntimeException when some were not sent */
        void publish(List<FeedNotification> notifications);
    }

    private final Publisher publisher;

    /** Used by Lambda: settings from the environment. @throws IllegalArgumentException when a setting is missing or invalid */
    public NotifierHandler() {
        this(NotifierSettings.from(System::getenv));
    }

    public NotifierHandler(NotifierSettings settings) {
        this(new SnsPublisher(SnsPublisher.client(settings.sns()), settings.topicArn()));
    }

    public NotifierHandler(Publisher publisher) {
        this.publisher = Objects.requireNonNull(publisher, "publisher");
    }

    /** Writes nothing: Lambda ignores what a stream-mapped function returns. @throws RuntimeException as {@link #notify} or {@link LambdaEvent#read} */
    @Override
    public void handleRequest(InputStream input, OutputStream output, Context context) throws IOException {
        notify(LambdaEvent.read(input).records());
    }

    /**
     * @throws RuntimeException of the publisher: not (all) sent; deliver the batch again
     * @throws UnreadableEpochTipsException when records of epoch Tips could not be read (the others' were published)
     */
    public Outcome notify(List<ChangeRecord> records) {
        Outcome outcome = read(records);
        if (!outcome.published().isEmpty()) {
            publisher.publish(outcome.published());
        }
        LOG.info("notifier: {} records, {} epoch Tips, {} others ignored, published {}", records.size(), outcome.epochTips(),
                outcome.ignored(), outcome.published().stream().map(n -> n.partition() + "@" + n.position().display()).toList());
        if (!outcome.rejected().isEmpty()) {
            outcome.rejected().forEach(r -> LOG.error("notifier: {}", r));
            throw new UnreadableEpochTipsException(outcome.rejected());
        }
        return outcome;
    }

    /** What {@link #notify} would publish for these records, publishing nothing. Pure. */
    static Outcome read(List<ChangeRecord> records) {
        Map<PartitionId, Checkpoint> reached = new TreeMap<>();
        List<RejectedRecord> rejected = new ArrayList<>();
        int tips = 0;
        for (ChangeRecord r : records) {
            try {
                FeedNotification at = position(r);
                if (at != null) {
                    tips++;
                    reached.merge(at.partition(), at.position(), (a, b) -> a.compareTo(b) >= 0 ? a : b);
                }
            } catch (IllegalArgumentException bad) {
                rejected.add(new RejectedRecord(r.sequenceNumber(), r.describeKey(), bad.getMessage()));
            }
        }
        List<FeedNotification> published = reached.entrySet().stream().map(e -> new FeedNotification(e.getKey(), e.getValue())).toList();
        return new Outcome(published, records.size(), tips, records.size() - tips - rejected.size(), rejected);
    }

    /** The position an epoch Tip's write shows, or null when the record is not one. @throws IllegalArgumentException saying what is wrong */
    private static FeedNotification position(ChangeRecord r) {
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
            throw new IllegalArgumentException("event name '" + r.eventName() + "' is none of INSERT, MODIFY, REMOVE");
        }
        Map<String, AttributeValue> image = r.newImage();
        if (image == null) {
            throw new IllegalArgumentException("the record has no new image (stream view type " + r.viewType() + "); turn the"
                    + " index table's stream on with NEW_IMAGE (or NEW_AND_OLD_IMAGES)");
        }
        AttributeValue n = image.get("n");
        long version;
        try {
            version = n == null || n.n() == null ? -1 : Long.parseLong(n.n());
        } catch (NumberFormatException e) {
            version = -1;
        }
        if (version < 0 || version > Checkpoint.EPOCH_SIZE) {
            throw new IllegalArgumentException("attribute n of the epoch Tip is " + (n == null ? "missing" : n)
                    + "; it must be a number of epoch events from 0 to " + Checkpoint.EPOCH_SIZE);
        }
        AttributeValue c = image.get("c");
        if (c != null && !c.hasL()) {
            throw new IllegalArgumentException("attribute c of the epoch Tip is " + c + ", not a list of event types");
        }
        List<String> types = r.eventTypes() != null ? r.eventTypes() : c == null ? List.of() : c.l().stream().map(AttributeValue::s).toList();
        boolean closed = !types.isEmpty() && EpochEvent.CLOSED.equals(types.get(types.size() - 1));
        Checkpoint position = closed || version == Checkpoint.EPOCH_SIZE
                ? Checkpoint.of(epoch.epoch(), 0).nextEpoch()
                : Checkpoint.of(epoch.epoch(), version);
        return new FeedNotification(epoch.partition(), position);
    }

    private static FeedStreams.EpochAddress epoch(String p) {
        FeedStreams.EpochAddress epoch;
        try {
            epoch = StreamName.problem(p) == null ? FeedStreams.parseEpoch(StreamName.parse(p)) : null;
        } catch (NumberFormatException e) {
            epoch = null;
        }
        if (epoch == null) {
            throw new IllegalArgumentException("key p '" + p + "' is not an epoch stream name $AppendsEpoch-<partition>_<epoch>");
        }
        return epoch;
    }
}

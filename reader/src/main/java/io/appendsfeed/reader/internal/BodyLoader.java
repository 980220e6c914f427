package io.appendsfeed.reader.internal;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.Read;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoredEvent;
import io.appendsfeed.reader.FeedEvent;
import io.appendsfeed.reader.MissingEventsException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import org.slf4j.LoggerFactory;

/**
 * Loads the bodies of feed events from the store table. Reads are eventually consistent; when a
 * replica lags and returns fewer events than the feed lists, it reads again (the last attempt
 * strongly consistent) and never hands over a gap.
 */
public final class BodyLoader {

    private static final Logger LOG = LoggerFactory.getLogger(BodyLoader.class);
    private static final Duration LAG_WAIT_MIN = Duration.ofMillis(20);

    /** Streams whose item layout is remembered (about 100 bytes each). */
    private static final int REMEMBERED_LAYOUTS = 100_000;
    /** Store items kept for the next load of their stream, by DynamoDB item size. */
    private static final long ITEM_CACHE_BYTES = 32L << 20;

    private final StoreClient store;
    private final ItemRangeReader items;
    private final int attempts;
    private final Backoff backoff;

    /** @param dynamo the client {@code store} uses, for the loads' own queries */
    public BodyLoader(StoreClient store, DynamoDbClient dynamo, int attempts) {
        this.store = store;
        this.items = new ItemRangeReader(dynamo, store.config().table(), new StreamLayouts(REMEMBERED_LAYOUTS),
                new ItemCache(ITEM_CACHE_BYTES));
        this.attempts = attempts;
        this.backoff = new Backoff(LAG_WAIT_MIN, Duration.ofSeconds(1));
    }

    /**
     * The events named by {@code wanted} (ascending indices of one stream), with bodies.
     *
     * @throws MissingEventsException when even a strongly consistent read lacks one of them
     * @throws IllegalStateException when the store's event type differs from the feed's
     * @throws InterruptedException when interrupted while waiting between reads
     */
    public List<FeedEvent> load(StreamName stream, List<FeedEvent> wanted) throws InterruptedException {
        long first = wanted.get(0).index();
        long last = wanted.get(wanted.size() - 1).index();
        for (int attempt = 1; ; attempt++) {
            boolean strong = attempt >= attempts;
            Map<Long, StoredEvent> byIndex = items.read(stream, first, last, strong);
            List<FeedEvent> out = new ArrayList<>(wanted.size());
            for (FeedEvent w : wanted) {
                StoredEvent e = byIndex.get(w.index());
                if (e == null) {
                    break;
                }
                if (!e.type().equals(w.type())) {
                    throw new IllegalStateException("event " + w.index() + " of " + stream + " has type '" + e.type()
                            + "' in the store table but '" + w.type() + "' in the feed: the feed and the store disagree");
                }
                out.add(toFeedEvent(e));
            }
            if (out.size() == wanted.size()) {
                return out;
            }
            long missing = wanted.get(out.size()).index();
            if (strong) {
                throw new MissingEventsException(stream, missing, byIndex.keySet().stream().filter(i -> i > missing)
                        .min(Long::compare).orElse(-1L));
            }
            LOG.debug("{}: event {} not yet visible (replica lag), read again (attempt {})", stream, missing, attempt);
            Thread.sleep(backoff.after(attempt).toMillis());
        }
    }

    /**
     * Up to {@code max} events of {@code stream} from {@code from} on, strongly consistent, for
     * replaying a released stream.
     */
    public List<FeedEvent> readFrom(StreamName stream, long from, int max, boolean bodies) {
        Read read = Read.forward(from).limit(max).strongly();
        List<FeedEvent> out = new ArrayList<>();
        for (StoredEvent e : store.readAll(stream, bodies ? read : read.typesOnly())) {
            out.add(bodies ? toFeedEvent(e) : FeedEvent.typeOnly(stream, e.index(), e.type()));
        }
        return out;
    }

    public static FeedEvent toFeedEvent(StoredEvent e) {
        return new FeedEvent(e.stream(), e.index(), e.type(), e.data(), e.meta(), e.timestamp(), e.correlationId(),
                e.causationId());
    }
}

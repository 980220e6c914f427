package io.appendsfeed.samples.bench.internal;

import io.appendsfeed.indexer.BatchOutcome;
import io.appendsfeed.model.feed.AppendsEpoch;
import io.appendsfeed.model.feed.EpochLimits;
import io.appendsfeed.indexer.Indexer;
import io.appendsfeed.indexer.IndexerConfig;
import io.appendsfeed.indexer.SourceSpan;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.EpochEvent;
import io.appendsfeed.model.feed.EpochId;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.feed.Span;
import io.appendsfeed.model.store.Read;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.model.store.StoredEvent;
import java.util.ArrayList;
import java.util.List;

/**
 * A feed of a given size built quickly, without a store table: synthetic spans of
 * {@value #SPAN_EVENTS} events ingested through {@link Indexer#ingestSpans}, over one stream per
 * {@value #EVENTS_PER_STREAM} events ({@code Synth-0..}), round robin, so every stream has several
 * spans. For the cold-start and reader-memory scenarios, which need epochs of 10k to 1M events.
 */
public final class SyntheticFeed {

    public static final int SPAN_EVENTS = 10;
    public static final int EVENTS_PER_STREAM = 100;
    /** Spans per {@code ingestSpans} call: about 30 KB of {@code Ingested} body, one conditional write. */
    private static final int SPANS_PER_CALL = 500;
    private static final List<String> TYPES = List.of("Deposited", "Withdrawn", "Deposited", "Deposited", "Withdrawn",
            "Deposited", "Withdrawn", "Deposited", "Deposited", "Withdrawn");

    /** Epoch limits high enough to hold the whole feed in one epoch. */
    public static final EpochLimits ONE_EPOCH = new EpochLimits(EpochLimits.MAX_EVENTS, Long.MAX_VALUE, Integer.MAX_VALUE);

    /**
     * @param activeEpoch the epoch open after the build
     * @param activeEpochEvents stream events its spans cover
     * @param activeEpochBytes its {@code Ingested} body bytes
     * @param next a span that continues a stream of the active epoch (what the next batch would bring)
     */
    public record Built(String indexTable, String limits, long events, long spans, int streams, int activeEpoch,
                        long activeEpochEvents, long activeEpochBytes, double seconds, Span next) {}

    private SyntheticFeed() {
    }

    /** @param events rounded down to a multiple of {@value #SPAN_EVENTS}, at least one span */
    public static Built build(LocalDynamo local, String indexTable, long events, EpochLimits limits, String limitsName) {
        local.indexTable(indexTable);
        long spans = Math.max(1, events / SPAN_EVENTS);
        int streams = (int) Math.max(1, spans * SPAN_EVENTS / EVENTS_PER_STREAM);
        long[] next = new long[streams];
        Indexer indexer = Indexer.start(local.dynamo(), IndexerConfig.builder(indexTable).limits(limits).build());
        long start = System.nanoTime();
        List<SourceSpan> chunk = new ArrayList<>(SPANS_PER_CALL);
        int epoch = 0;
        for (long k = 0; k < spans; k++) {
            int s = (int) (k % streams);
            chunk.add(SourceSpan.of(new Span(stream(s), next[s], TYPES), "synthetic-" + k));
            next[s] += SPAN_EVENTS;
            if (chunk.size() == SPANS_PER_CALL || k == spans - 1) {
                epoch = ingest(indexer, chunk);
                chunk.clear();
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        int last = (int) ((spans - 1) % streams);
        long[] active = activeEpoch(local, indexTable, epoch);
        return new Built(indexTable, limitsName, spans * SPAN_EVENTS, spans, streams, epoch, active[0], active[1],
                seconds, new Span(stream(last), next[last], List.of("Deposited")));
    }

    private static int ingest(Indexer indexer, List<SourceSpan> chunk) {
        BatchOutcome o = indexer.ingestSpans(chunk);
        if (!o.complete() || o.acceptedEvents() != (long) chunk.size() * SPAN_EVENTS) {
            throw new IllegalStateException("synthetic spans not ingested: accepted " + o.acceptedEvents() + " of "
                    + chunk.size() * SPAN_EVENTS + ", " + o.errors());
        }
        return o.partitions().get(0).epoch().value();
    }

    private static long[] activeEpoch(LocalDynamo local, String indexTable, int epoch) {
        StoreClient index = new StoreClient(local.dynamo(), StoreConfig.builder(indexTable).reservedStreams(true).build());
        long events = 0;
        long bytes = 0;
        for (StoredEvent e : index.readAll(AppendsEpoch.stream(PartitionId.ZERO, new EpochId(epoch)),
                Read.forward(0))) {
            if (AppendsEpoch.decode(e) instanceof EpochEvent.Ingested i) {
                events += i.eventCount();
                bytes += e.data().length;
            }
        }
        return new long[] {events, bytes};
    }

    static StreamName stream(int s) {
        return StreamName.of("Synth", Integer.toString(s));
    }
}

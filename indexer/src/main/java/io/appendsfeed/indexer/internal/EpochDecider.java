package io.appendsfeed.indexer.internal;

import io.appendsfeed.indexer.EpochLimits;
import io.appendsfeed.indexer.FeedGapException;
import io.appendsfeed.indexer.SourceSpan;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.EpochEvent;
import io.appendsfeed.model.feed.FeedCodec;
import io.appendsfeed.model.feed.Span;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Decides the next write to an epoch (DESIGN.md, "Ingest"): drops what the feed already holds,
 * trims overlaps, fills a gap from the Tip when it can, refuses one it cannot, and stops where a
 * limit is reached. Pure: the same state and inputs give the same decision.
 */
public final class EpochDecider {

    /**
     * Largest {@code Ingested} body per write. The epoch's Tip holds the new events whole, so this
     * keeps every write well under DynamoDB's 400 KB item limit; a batch with more goes in several writes.
     */
    public static final int INGESTED_MAX_BYTES = 64 * 1024;
    /** Bytes of {@code {"add":[],"app":[]}}. */
    private static final int INGESTED_OVERHEAD_BYTES = 18;

    private EpochDecider() {}

    /**
     * @param state the epoch as last read
     * @param inputs spans of one partition, in delivery order
     * @param prior next indexes from earlier epochs, for streams this epoch does not hold
     * @param limits when the epoch closes
     * @param allowGaps let spans past a gap through instead of stopping there
     */
    public static Decision decide(EpochState state, List<SourceSpan> inputs, Map<StreamName, Long> prior,
                                  EpochLimits limits, boolean allowGaps) {
        if (state.isClosed()) {
            throw new IllegalStateException("epoch " + state.epoch() + " is closed; decide on its successor");
        }
        if (state.version() >= limits.maxEvents()) {
            // reached by another writer without closing: close before anything else
            return new Decision(null, true, 0, 0, 0, 0, List.of(), null, 0);
        }
        boolean lastIngested = state.version() + 1 >= limits.maxEvents();
        Map<StreamName, Long> known = new HashMap<>();
        Set<StreamName> added = new HashSet<>();
        List<Span> add = new ArrayList<>();
        List<Span> app = new ArrayList<>();
        List<FeedGapException> allowed = new ArrayList<>();
        long bytes = INGESTED_OVERHEAD_BYTES;
        long accepted = 0, duplicates = 0, healed = 0;
        boolean close = false;
        FeedGapException gap = null;
        int k = 0;
        for (; k < inputs.size(); k++) {
            SourceSpan in = inputs.get(k);
            Span span = in.span();
            StreamName stream = span.stream();
            long next = known.computeIfAbsent(stream, s -> {
                long n = state.nextIndex(s);
                return n >= 0 ? n : prior.getOrDefault(s, -1L);
            });
            if (next >= 0) {
                if (span.nextIndex() <= next) {
                    duplicates += span.count();
                    continue;
                }
                if (span.index() > next) {
                    if (in.tip() != null && in.tip().index() <= next) {
                        healed += span.index() - next;
                        span = in.tip().from(next);
                    } else if (allowGaps) {
                        allowed.add(new FeedGapException(stream, next, span.index()));
                    } else {
                        gap = new FeedGapException(stream, next, span.index());
                        break;
                    }
                } else {
                    duplicates += next - span.index();
                    span = span.from(next);
                }
            }
            boolean inEpoch = state.nextIndex(stream) >= 0 || added.contains(stream);
            long spanBytes = jsonBytes(span) + 1;
            boolean empty = add.isEmpty() && app.isEmpty();
            boolean fresh = empty && state.version() == 0;
            if (!fresh && (state.bytes() + bytes + spanBytes > limits.maxBytes()
                    || (!inEpoch && state.next().size() + added.size() + 1 > limits.maxStreams()))) {
                close = true;
                break;
            }
            if (!empty && bytes + spanBytes > INGESTED_MAX_BYTES) {
                break;
            }
            if (inEpoch) {
                app.add(span);
            } else {
                add.add(span);
                added.add(stream);
            }
            bytes += spanBytes;
            accepted += span.count();
            known.put(stream, span.nextIndex());
        }
        EpochEvent.Ingested ingested = add.isEmpty() && app.isEmpty() ? null : new EpochEvent.Ingested(add, app);
        long bodyBytes = ingested == null ? 0 : FeedCodec.encode(ingested).length;
        // the Ingested that brings the epoch to maxEvents is its last
        close = close || (lastIngested && ingested != null);
        return new Decision(ingested, close, k, accepted, duplicates, healed, allowed, gap, bodyBytes);
    }

    /** Bytes of one span in an {@code Ingested} body. */
    static long jsonBytes(Span span) {
        return FeedCodec.span(span).toString().getBytes(StandardCharsets.UTF_8).length;
    }
}

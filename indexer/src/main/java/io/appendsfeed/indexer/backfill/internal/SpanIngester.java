package io.appendsfeed.indexer.backfill.internal;

import io.appendsfeed.indexer.BatchOutcome;
import io.appendsfeed.indexer.FeedGapException;
import io.appendsfeed.indexer.Indexer;
import io.appendsfeed.indexer.SourceSpan;
import io.appendsfeed.indexer.backfill.BackfillFailedException;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.Span;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import software.amazon.awssdk.retries.api.BackoffStrategy;
import org.slf4j.LoggerFactory;

/**
 * Hands assembled spans to the indexer batch by batch, from one thread, so that a stream's spans
 * go in in order. Retries what was not ingested; a stream the feed holds past a gap is set aside
 * and reported, the rest goes on.
 */
public final class SpanIngester {

    private static final Logger log = LoggerFactory.getLogger(SpanIngester.class);
    private static final Duration MAX_BACKOFF = Duration.ofMinutes(1);

    private final Indexer indexer;
    private final int maxRetries;
    private final Duration retryBackoff;
    private final AtomicLong spans = new AtomicLong();
    private final AtomicLong accepted = new AtomicLong();
    private final AtomicLong duplicates = new AtomicLong();
    private final List<FeedGapException> gaps = new ArrayList<>();

    public SpanIngester(Indexer indexer, int maxRetries, Duration retryBackoff) {
        this.indexer = indexer;
        this.maxRetries = maxRetries;
        this.retryBackoff = retryBackoff;
    }

    public long spans() { return spans.get(); }
    public long accepted() { return accepted.get(); }
    public long duplicates() { return duplicates.get(); }
    public List<FeedGapException> gaps() { return List.copyOf(gaps); }

    /** The span as handed to the indexer; its position {@code stream@index} is unique in a backfill. */
    public static SourceSpan source(Span s) {
        return SourceSpan.of(s, s.stream() + "@" + s.index());
    }

    /**
     * @throws BackfillFailedException when a span is still not ingested after every retry
     */
    public void ingest(List<SourceSpan> batch) {
        spans.addAndGet(batch.size());
        List<SourceSpan> rest = batch;
        // the AWS SDK's policy, appendsfeed's one retry policy: doubling from retryBackoff, half jitter, at most a minute
        BackoffStrategy policy = BackoffStrategy.exponentialDelayHalfJitter(retryBackoff, MAX_BACKOFF);
        int attempts = 0;
        while (!rest.isEmpty()) {
            BatchOutcome o = indexer.ingestSpans(rest);
            accepted.addAndGet(o.acceptedEvents());
            duplicates.addAndGet(o.duplicateEvents());
            if (o.complete()) {
                return;
            }
            int k = 0;
            while (!rest.get(k).position().equals(o.firstNotIngested())) k++;
            rest = rest.subList(k, rest.size());
            StreamName stream = rest.get(0).span().stream();
            FeedGapException gap = (FeedGapException) o.errors().stream()
                    .filter(e -> e instanceof FeedGapException g && g.stream().equals(stream)).findFirst().orElse(null);
            if (gap != null) {
                log.error("backfill: {} is left out: {}", stream, gap.getMessage());
                gaps.add(gap);
                rest = rest.stream().filter(s -> !s.span().stream().equals(stream)).toList();
                continue;
            }
            if (++attempts > maxRetries) {
                throw new BackfillFailedException(rest.get(0).position(), attempts, o.errors().isEmpty() ? null : o.errors().get(0));
            }
            Duration backoff = policy.computeDelay(attempts);
            log.warn("backfill: not ingested from {}, retry {} of {} in {}: {}", o.firstNotIngested(), attempts, maxRetries,
                    backoff, o.errors());
            pause(backoff);
        }
    }

    private static void pause(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("backfill interrupted while waiting to retry", e);
        }
    }
}

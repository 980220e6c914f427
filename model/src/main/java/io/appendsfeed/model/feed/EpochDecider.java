package io.appendsfeed.model.feed;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import io.appendsfeed.model.StreamName;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Decides the next write to an epoch (DESIGN.md, "The indexer", step 4): drops what the feed already holds,
 * trims overlaps, fills a gap from the Tip when it can, refuses one it cannot, and stops where a
 * limit is reached. Pure: the same state and inputs give the same decision.
 *
 * <p>Invariants of the epoch format it keeps: each stream's spans in an epoch follow one another
 * without overlap or hole (a stream's first span in the epoch is in {@code add}, later ones in
 * {@code app}); one span per stream and write; an epoch holds at most {@link EpochLimits#maxEvents()}
 * events, the {@code Ingested} reaching it being followed by {@code Closed}; every write's body stays
 * under {@link #INGESTED_MAX_BYTES}.
 */
public final class EpochDecider {

    /**
     * A span to decide on, as its source delivered it (the indexer's {@code SourceSpan} is one).
     * An interface rather than a record of ours, so that deciding copies nothing per span.
     */
    public interface Input {
        /** The newly appended events. */
        Span span();

        /**
         * Every event type the stream's Tip held after the append (a span ending where {@link #span()}
         * ends and starting no later), or null: the events a gap is healed from.
         */
        Span tip();
    }

    /**
     * Largest {@code Ingested} body per write. The epoch's Tip holds the new events whole, so this
     * keeps every write well under DynamoDB's 400 KB item limit; a batch with more goes in several writes.
     */
    public static final int INGESTED_MAX_BYTES = 64 * 1024;
    /** Bytes of {@code {"add":[],"app":[]}}. */
    private static final int INGESTED_OVERHEAD_BYTES = 18;
    private static final JsonStringEncoder QUOTE = JsonStringEncoder.getInstance();

    private EpochDecider() {}

    /**
     * @param state the epoch as last read
     * @param inputs spans of one partition, in delivery order
     * @param prior next indexes from earlier epochs, for streams this epoch does not hold; a stream in
     *              neither is taken as it starts (where its earlier events are is not known here)
     * @param limits when the epoch closes
     * @param allowGaps let spans past a gap through instead of stopping there
     */
    public static EpochWrite decide(EpochState state, List<? extends Input> inputs, Map<StreamName, Long> prior,
                                  EpochLimits limits, boolean allowGaps) {
        if (state.isClosed()) {
            throw new IllegalStateException("epoch " + state.epoch() + " is closed; decide on its successor");
        }
        if (state.version() >= limits.maxEvents()) {
            // reached by another writer without closing: close before anything else
            return new EpochWrite(null, true, 0, null, 0, 0, 0, List.of(), null, 0);
        }
        boolean lastIngested = state.version() + 1 >= limits.maxEvents();
        Map<StreamName, Long> known = new HashMap<>();
        // streams the epoch held before this write: looked up in the (persistent, slower) state once each
        Set<StreamName> held = new java.util.HashSet<>();
        // one span per stream and write: a stream's later records continue its span (equinox-js flattens likewise)
        Map<StreamName, Span> add = new LinkedHashMap<>();
        Map<StreamName, Span> app = new LinkedHashMap<>();
        List<EpochWrite.Gap> allowed = new ArrayList<>();
        long bytes = INGESTED_OVERHEAD_BYTES;
        long accepted = 0, duplicates = 0, healed = 0;
        boolean close = false;
        EpochWrite.Gap gap = null;
        Span remainder = null;
        int k = 0;
        for (; k < inputs.size(); k++) {
            Input in = inputs.get(k);
            Span span = in.span();
            StreamName stream = span.stream();
            long next = known.computeIfAbsent(stream, s -> {
                long n = state.nextIndex(s);
                if (n >= 0) {
                    held.add(s);
                    return n;
                }
                return prior.getOrDefault(s, -1L);
            });
            long healing = 0;
            EpochWrite.Gap allowedGap = null;
            if (next >= 0) {
                if (span.nextIndex() <= next) {
                    duplicates += span.count();
                    continue;
                }
                if (span.index() > next) {
                    if (in.tip() != null && in.tip().index() <= next) {
                        healing = span.index() - next;
                        span = in.tip().from(next);
                    } else if (allowGaps) {
                        allowedGap = new EpochWrite.Gap(stream, next, span.index());
                    } else {
                        gap = new EpochWrite.Gap(stream, next, span.index());
                        break;
                    }
                } else {
                    duplicates += next - span.index();
                    span = span.from(next);
                }
            }
            Map<StreamName, Span> into = held.contains(stream) || app.containsKey(stream) ? app : add;
            Span before = into.get(stream);
            boolean joins = before != null && before.nextIndex() == span.index();
            if (before != null && !joins) {
                break; // a span past an allowed gap in a stream this write holds already: it goes in the next
            }
            boolean newStream = into == add && before == null;
            long spanBytes = joins ? typesBytes(span) : jsonBytes(span) + 1;
            boolean empty = add.isEmpty() && app.isEmpty();
            boolean fresh = empty && state.version() == 0;
            if (!fresh && (state.bytes() + bytes + spanBytes > limits.maxBytes()
                    || (newStream && state.next().size() + add.size() + 1 > limits.maxStreams()))) {
                close = true;
                break;
            }
            if (bytes + spanBytes > INGESTED_MAX_BYTES) {
                // a span too big for what is left of this write: take what fits, the rest goes in the next
                Span part = fitting(span, INGESTED_MAX_BYTES - bytes, joins);
                if (part == null && !empty) {
                    break;
                }
                part = part == null ? span.prefix(1) : part;
                if (part.count() < span.count()) {
                    remainder = span.from(part.nextIndex());
                    span = part;
                    spanBytes = joins ? typesBytes(span) : jsonBytes(span) + 1;
                }
            }
            into.put(stream, joins ? before.concat(span) : span);
            bytes += spanBytes;
            accepted += span.count();
            healed += healing;
            if (allowedGap != null) {
                allowed.add(allowedGap);
            }
            known.put(stream, span.nextIndex());
            if (remainder != null) {
                break;
            }
        }
        EpochEvent.Ingested ingested = add.isEmpty() && app.isEmpty() ? null
                : new EpochEvent.Ingested(new ArrayList<>(add.values()), new ArrayList<>(app.values()));
        // as Jackson writes it, counted span by span above: each span was counted with a comma, and the
        // overhead with one between the lists, so both lists holding spans counts one comma too many
        long bodyBytes = ingested == null ? 0 : bytes - (!add.isEmpty() && !app.isEmpty() ? 1 : 0);
        // the Ingested that brings the epoch to maxEvents is its last
        close = close || (lastIngested && ingested != null);
        return new EpochWrite(ingested, close, k, remainder, accepted, duplicates, healed, allowed, gap, bodyBytes);
    }

    /**
     * Whether {@code write}, decided on an earlier state, is still what {@link #decide} decides on
     * {@code after}: that state followed by {@code since}, events other writers appended meanwhile. It
     * is when none of them touches a stream of {@code inputs} (so every stream's next index, and whether
     * the epoch holds it, is what the decision saw), none closes the epoch, and {@code after} leaves room
     * for the whole write without reaching a limit (the limit checks only grow stricter as the epoch
     * fills, so passing them at the end passes each along the way). A writer that lost a race then sends
     * the same write at the new version without deciding or encoding again. Conservative: false sends the
     * writer back to {@link #decide}, never to a different write.
     *
     * @param inputs the inputs {@code write} was decided on
     */
    public static boolean stillHolds(EpochWrite write, EpochState after, List<EpochEvent> since,
                                     List<? extends Input> inputs, EpochLimits limits) {
        if (write.ingested() == null || write.close() || after.isClosed()
                || after.version() + 1 >= limits.maxEvents()
                || after.bytes() + countedBytes(write) > limits.maxBytes()
                || after.next().size() + write.ingested().add().size() > limits.maxStreams()) {
            return false;
        }
        Set<StreamName> mine = new java.util.HashSet<>(inputs.size() * 2);
        for (Input in : inputs) {
            mine.add(in.span().stream());
        }
        for (EpochEvent e : since) {
            if (!(e instanceof EpochEvent.Ingested other) || touches(other.add(), mine) || touches(other.app(), mine)) {
                return false;
            }
        }
        return true;
    }

    /** The bytes {@link #decide} counted against the epoch's limit for {@code write}: its body, and one comma more when both lists hold spans. */
    private static long countedBytes(EpochWrite write) {
        return write.bodyBytes() + (!write.ingested().add().isEmpty() && !write.ingested().app().isEmpty() ? 1 : 0);
    }

    private static boolean touches(List<Span> spans, Set<StreamName> streams) {
        for (Span s : spans) {
            if (streams.contains(s.stream())) {
                return true;
            }
        }
        return false;
    }

    /** The longest prefix of {@code span} whose bytes fit {@code room}, or null when not even one type does. */
    private static Span fitting(Span span, long room, boolean joins) {
        long used = joins ? 0 : jsonBytes(span.prefix(1)) + 1 - typeBytes(span.types().get(0));
        int n = 0;
        for (String t : span.types()) {
            long b = typeBytes(t) + (n == 0 && !joins ? 0 : 1);
            if (used + b > room) {
                break;
            }
            used += b;
            n++;
        }
        return n == 0 ? null : span.prefix(n);
    }

    /** Bytes {@code span}'s types add to a span of the same stream that it continues: a comma and the quoted type each. */
    static long typesBytes(Span span) {
        long b = 0;
        for (String t : span.types()) {
            b += typeBytes(t) + 1;
        }
        return b;
    }

    private static long typeBytes(String type) {
        return quotedBytes(type) + 2;
    }

    /**
     * UTF-8 bytes of {@code s} escaped as Jackson writes it in a JSON string, quotes not counted.
     * Printable ASCII without {@code "} or {@code \\} (nearly every stream name and event type) is
     * itself; anything else is escaped to count it.
     */
    private static int quotedBytes(String s) {
        for (int k = 0; k < s.length(); k++) {
            char c = s.charAt(k);
            if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') {
                return QUOTE.quoteAsUTF8(s).length;
            }
        }
        return s.length();
    }

    /** Bytes of one span in an {@code Ingested} body. */
    static long jsonBytes(Span span) {
        // {"p":<stream>,"i":<index>,"c":[<types>]}: as Jackson writes it, without building it
        long b = 20 + quotedBytes(span.stream().value()) + Long.toString(span.index()).length();
        for (String t : span.types()) {
            b += typeBytes(t) + 1;
        }
        return b - 1;
    }
}

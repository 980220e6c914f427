package io.appendsfeed.model.feed;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.appendsfeed.model.Decider;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.EventData;
import io.appendsfeed.model.store.Read;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoredEvent;
import io.vavr.collection.HashMap;
import io.vavr.collection.Map;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * {@code $AppendsEpoch-<partition>_<epoch>} (DESIGN.md, "The index table" and "Writing an epoch"), read top
 * to bottom: its stream name, its events and their JSON, its fold, the pure decision of the next write,
 * and the service that loads, decides and writes an epoch through the {@link Decider}.
 *
 * <p>Invariants of the format: an epoch's events are {@code Ingested} ones, then at most one {@code Closed},
 * which is its last; offsets (event indexes) run from 0 without holes and stay below
 * {@link Checkpoint#EPOCH_SIZE}, so that a checkpoint {@code epoch × 1,000,000 + offset} names every event;
 * a closed epoch never changes, and the partition continues in the next epoch. Each stream's spans in an
 * epoch follow one another without overlap or hole.
 */
public final class AppendsEpoch {

    // ---- the stream

    /** {@code $AppendsEpoch-<partition>_<epoch>}. */
    public static StreamName stream(PartitionId partition, EpochId epoch) {
        return FeedStreams.epoch(partition, epoch);
    }

    /** Where a walk of the feed continues after {@code event}, read at {@code position}: {@code Closed} leads to the next epoch. */
    public static Checkpoint after(Checkpoint position, EpochEvent event) {
        return event instanceof EpochEvent.Closed ? position.nextEpoch() : position.plus(1);
    }

    // ---- events

    /**
     * The epoch's events. JSON bodies with exactly these field names, shared with the .NET and TypeScript
     * implementations: {@code Ingested {"add":[span],"app":[span]}} and {@code Closed {}}; a span is
     * {@code {"p":stream,"i":index,"c":[types]}}.
     */
    public sealed interface EpochEvent {
        String INGESTED = "Ingested";
        String CLOSED = "Closed";

        /** The event type name stored in {@code c}. */
        String type();

        /**
         * The spans of one write for one partition.
         *
         * @param add the first span of each stream not yet in this epoch
         * @param app later spans of streams already in this epoch
         */
        record Ingested(List<Span> add, List<Span> app) implements EpochEvent {
            public Ingested {
                add = List.copyOf(Objects.requireNonNull(add, "add"));
                app = List.copyOf(Objects.requireNonNull(app, "app"));
            }

            public String type() { return INGESTED; }

            /** Number of stream events the spans cover. */
            public long eventCount() {
                return add.stream().mapToLong(Span::count).sum() + app.stream().mapToLong(Span::count).sum();
            }
        }

        /** The epoch is full; the partition continues in the next epoch. */
        record Closed() implements EpochEvent {
            public String type() { return CLOSED; }
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Compact UTF-8 JSON, written with Jackson's generator (golden tests pin the bytes). */
    public static byte[] encode(EpochEvent event) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(64);
        try (JsonGenerator g = JSON.getFactory().createGenerator(out)) {
            g.writeStartObject();
            if (event instanceof EpochEvent.Ingested ingested) {
                writeSpans(g, "add", ingested.add());
                writeSpans(g, "app", ingested.app());
            }
            g.writeEndObject();
        } catch (IOException e) {
            throw new IllegalStateException("cannot encode " + event, e);
        }
        return out.toByteArray();
    }

    private static void writeSpans(JsonGenerator g, String field, List<Span> spans) throws IOException {
        g.writeArrayFieldStart(field);
        for (Span span : spans) {
            g.writeStartObject();
            g.writeStringField("p", span.stream().value());
            g.writeNumberField("i", span.index());
            g.writeArrayFieldStart("c");
            for (String t : span.types()) {
                g.writeString(t);
            }
            g.writeEndArray();
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    /**
     * An epoch event as stored, decoded.
     *
     * @throws FeedFormatException when its type or body is not one this version reads
     */
    public static EpochEvent decode(StoredEvent e) {
        return decode(e.type(), e.data());
    }

    /**
     * Reads what other implementations write too: unknown fields are ignored, a missing or null list is empty.
     *
     * @throws FeedFormatException for an unknown type (a newer format) or a body that does not fit its type, saying what is wrong
     */
    public static EpochEvent decode(String type, byte[] data) {
        if (EpochEvent.CLOSED.equals(type)) {
            return new EpochEvent.Closed();
        }
        if (!EpochEvent.INGESTED.equals(type)) {
            throw new FeedFormatException(type, "unknown epoch event type '" + type
                    + "': this epoch was written by a newer or different format; upgrade appendsfeed to read it");
        }
        JsonNode body;
        try {
            body = data == null || data.length == 0 ? null : JSON.readTree(data);
        } catch (IOException e) {
            throw new FeedFormatException(type, type + " body is not JSON: " + abbreviate(new String(data, StandardCharsets.UTF_8)), e);
        }
        if (body == null || body.isMissingNode() || body.isNull()) {
            return new EpochEvent.Ingested(List.of(), List.of());
        }
        if (!body.isObject()) {
            throw bad(type + " body is not a JSON object: " + abbreviate(new String(data, StandardCharsets.UTF_8)));
        }
        return new EpochEvent.Ingested(spans(body, "add"), spans(body, "app"));
    }

    /** The spans in {@code body}'s array {@code field}; each needs a string {@code p}, a long {@code i} and strings {@code c}. */
    private static List<Span> spans(JsonNode body, String field) {
        JsonNode array = body.path(field);
        if (array.isMissingNode() || array.isNull()) {
            return List.of();
        }
        if (!array.isArray()) {
            throw bad(EpochEvent.INGESTED + " field '" + field + "' is not an array");
        }
        List<Span> spans = new ArrayList<>(array.size());
        for (JsonNode s : array) {
            JsonNode p = s.path("p"), i = s.path("i"), c = s.path("c");
            List<String> types = new ArrayList<>(c.size());
            c.forEach(t -> types.add(t.isTextual() ? t.textValue() : null));
            try {
                if (!p.isTextual() || !i.isIntegralNumber() || !i.canConvertToLong() || !c.isArray() || types.contains(null)) {
                    throw new IllegalArgumentException("a span needs a string 'p', an integer 'i' and an array 'c' of strings");
                }
                spans.add(new Span(StreamName.parse(p.textValue()), i.longValue(), types));
            } catch (IllegalArgumentException e) {
                throw bad(EpochEvent.INGESTED + " has an invalid span in '" + field + "' (" + e.getMessage() + ")");
            }
        }
        return spans;
    }

    private static FeedFormatException bad(String message) {
        return new FeedFormatException(EpochEvent.INGESTED, message);
    }

    private static String abbreviate(String s) {
        return s.length() <= 120 ? s : s.substring(0, 117) + "...";
    }

    // ---- fold

    /**
     * The fold of one epoch: for every stream in it, the index its next event will get. Persistent (vavr),
     * so that deciding on a copy costs nothing and a failed write leaves the kept state untouched.
     *
     * @param version epoch events so far (the next event's offset)
     * @param next stream → next index, for the streams this epoch holds; indexes only move forwards (a span
     *             behind what is known, written by another implementation, changes nothing)
     * @param bytes bytes of the event bodies so far
     * @param closedAt when {@code Closed} was written, null while the epoch is open
     */
    public record EpochState(EpochId epoch, long version, Map<StreamName, Long> next, long bytes, Instant closedAt) {
        public EpochState {
            Objects.requireNonNull(epoch, "epoch");
            Objects.requireNonNull(next, "next");
        }

        public static EpochState empty(EpochId epoch) {
            return new EpochState(epoch, 0, HashMap.empty(), 0, null);
        }

        public boolean isClosed() {
            return closedAt != null;
        }

        /** The next index of {@code stream} per this epoch, or -1 when the epoch does not hold it. */
        public long nextIndex(StreamName stream) {
            return next.getOrElse(stream, -1L);
        }

        /** @param at the event's timestamp (used for {@code Closed}) */
        public EpochState evolve(EpochEvent event, long bodyBytes, Instant at) {
            if (!(event instanceof EpochEvent.Ingested ingested)) {
                return new EpochState(epoch, version + 1, next, bytes + bodyBytes, closedAt == null ? at : closedAt);
            }
            Map<StreamName, Long> m = next;
            for (List<Span> spans : List.of(ingested.add(), ingested.app())) {
                for (Span s : spans) {
                    m = s.nextIndex() > m.getOrElse(s.stream(), -1L) ? m.put(s.stream(), s.nextIndex()) : m;
                }
            }
            return new EpochState(epoch, version + 1, m, bytes + bodyBytes, closedAt);
        }

        EpochState evolve(StoredEvent e) {
            return evolve(decode(e), e.data() == null ? 0 : e.data().length, e.timestamp());
        }
    }

    // ---- decide

    /**
     * When an epoch closes: with the {@code Ingested} that reaches any limit; the rest of the batch goes
     * on in the next epoch.
     *
     * @param maxEvents {@code Ingested} events before {@code Closed}; at most {@value #MAX_EVENTS}, so that
     *                  {@code Closed} still has an offset below the checkpoint encoding's 1,000,000
     * @param maxBytes bytes of bodies (compact JSON): bounds what a cold indexer or a reader reads per epoch
     * @param maxStreams distinct streams: bounds the indexer's memory per partition
     */
    public record EpochLimits(int maxEvents, long maxBytes, int maxStreams) {
        /** Fixed by {@link Checkpoint#EPOCH_SIZE}: offsets 0..999,999, the last being {@code Closed}. */
        public static final int MAX_EVENTS = 999_999;
        public static final long DEFAULT_MAX_BYTES = 2L * 1024 * 1024;
        public static final int DEFAULT_MAX_STREAMS = 100_000;
        public static final EpochLimits DEFAULT = new EpochLimits(MAX_EVENTS, DEFAULT_MAX_BYTES, DEFAULT_MAX_STREAMS);

        public EpochLimits {
            if (maxEvents < 1 || maxEvents > MAX_EVENTS || maxBytes < 1 || maxStreams < 1) {
                throw new IllegalArgumentException("maxEvents must be in [1, " + MAX_EVENTS + "], maxBytes and maxStreams >= 1, were "
                        + maxEvents + ", " + maxBytes + ", " + maxStreams);
            }
        }
    }

    /** A span to decide on, as its source delivered it (the indexer's {@code SourceSpan} is one). */
    public interface Input {
        /** The newly appended events. */
        Span span();

        /** Every event type the stream's Tip held after the append (ending where {@link #span()} ends), or null: what a gap is healed from. */
        Span tip();
    }

    /**
     * What {@link #decide} decided to write next, and what that settles of its inputs.
     *
     * @param ingested the {@code Ingested} to append, null when nothing new is to be written
     * @param close append {@code Closed} after it: the epoch reached a limit
     * @param consumed how many inputs, from the front, this decision settles (written, dropped or trimmed)
     * @param remainder when input {@code consumed} was too big for one write: the rest of its span, to go first in the next
     * @param healedEvents events taken from the Tip to fill what would otherwise have been a gap
     * @param allowedGaps spans let through past a gap (only with allowGaps)
     * @param gap set when the decision stopped at a span that would leave a gap; {@code consumed} is its position
     * @param bodyBytes the size of the {@code Ingested} body exactly as {@link #encode} writes it, counted span by span
     */
    public record EpochWrite(EpochEvent.Ingested ingested, boolean close, int consumed, Span remainder, long acceptedEvents,
                             long duplicateEvents, long healedEvents, List<Gap> allowedGaps, Gap gap, long bodyBytes) {
        static final EpochWrite NONE = new EpochWrite(null, false, 0, null, 0, 0, 0, List.of(), null, 0);

        /** A span starting after its stream's next index in the feed: indexing it would leave a hole. */
        public record Gap(StreamName stream, long expectedIndex, long actualIndex) {}

        /** The events to append: the {@code Ingested}, then {@code Closed} when closing. */
        public List<EpochEvent> events() {
            return Stream.<EpochEvent>of(ingested, close ? new EpochEvent.Closed() : null).filter(Objects::nonNull).toList();
        }
    }

    /** Largest {@code Ingested} body per write: keeps each calf well under DynamoDB's 400 KB item limit. */
    public static final int INGESTED_MAX_BYTES = 64 * 1024;
    /** Bytes of {@code {"add":[],"app":[]}}. */
    private static final int INGESTED_OVERHEAD_BYTES = 18;
    private static final JsonStringEncoder QUOTE = JsonStringEncoder.getInstance();

    /**
     * The next write (DESIGN.md, "The indexer", step 4): drops what the feed already holds, trims overlaps,
     * fills a gap from the Tip when it can, stops at one it cannot, keeps one span per stream and write, and
     * closes where a limit is reached. Pure. Nothing on a closed epoch: its successor decides.
     *
     * @param inputs spans of one partition, in delivery order
     * @param prior next indexes from earlier epochs, for streams this epoch does not hold; a stream in neither
     *              is taken as it starts
     * @param allowGaps let spans past a gap through instead of stopping there
     */
    public static EpochWrite decide(EpochState state, List<? extends Input> inputs, java.util.Map<StreamName, Long> prior,
                                    EpochLimits limits, boolean allowGaps) {
        if (state.isClosed()) {
            return EpochWrite.NONE;
        }
        if (state.version() >= limits.maxEvents()) { // reached by another writer without closing: close first
            return new EpochWrite(null, true, 0, null, 0, 0, 0, List.of(), null, 0);
        }
        java.util.Map<StreamName, Long> known = new java.util.HashMap<>();
        Set<StreamName> held = new HashSet<>(); // streams the epoch held before this write
        java.util.Map<StreamName, Span> add = new LinkedHashMap<>(), app = new LinkedHashMap<>();
        List<EpochWrite.Gap> allowed = new ArrayList<>();
        long bytes = INGESTED_OVERHEAD_BYTES, accepted = 0, duplicates = 0, healed = 0;
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
                }
                return n >= 0 ? n : prior.getOrDefault(s, -1L);
            });
            long healing = 0;
            EpochWrite.Gap allowedGap = null;
            if (next >= 0 && span.nextIndex() <= next) {
                duplicates += span.count();
                continue;
            } else if (next >= 0 && span.index() > next) {
                Span tip = in.tip();
                if (tip != null && tip.index() <= next) {
                    healing = span.index() - next;
                    span = tip.from(next);
                } else if (allowGaps) {
                    allowedGap = new EpochWrite.Gap(stream, next, span.index());
                } else {
                    gap = new EpochWrite.Gap(stream, next, span.index());
                    break;
                }
            } else if (next >= 0) {
                duplicates += next - span.index();
                span = span.from(next);
            }
            java.util.Map<StreamName, Span> into = held.contains(stream) || app.containsKey(stream) ? app : add;
            Span before = into.get(stream);
            boolean joins = before != null && before.nextIndex() == span.index();
            if (before != null && !joins) {
                break; // a span past an allowed gap in a stream this write holds already: it goes in the next
            }
            long spanBytes = joins ? typesBytes(span) : jsonBytes(span) + 1;
            boolean empty = add.isEmpty() && app.isEmpty();
            if (!(empty && state.version() == 0) && (state.bytes() + bytes + spanBytes > limits.maxBytes()
                    || (into == add && before == null && state.next().size() + add.size() + 1 > limits.maxStreams()))) {
                close = true;
                break;
            }
            if (bytes + spanBytes > INGESTED_MAX_BYTES) { // take what fits, the rest goes in the next write
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
        // each span was counted with a comma, and the overhead with one between the lists: one too many when both hold spans
        long bodyBytes = ingested == null ? 0 : bytes - (!add.isEmpty() && !app.isEmpty() ? 1 : 0);
        // the Ingested that brings the epoch to maxEvents is its last
        close = close || (state.version() + 1 >= limits.maxEvents() && ingested != null);
        return new EpochWrite(ingested, close, k, remainder, accepted, duplicates, healed, allowed, gap, bodyBytes);
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
        return span.types().stream().mapToLong(t -> typeBytes(t) + 1).sum();
    }

    private static long typeBytes(String type) {
        for (int k = 0; k < type.length(); k++) {
            char c = type.charAt(k);
            if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') { // escaped or multi-byte, as Jackson writes it
                return QUOTE.quoteAsUTF8(type).length + 2;
            }
        }
        return type.length() + 2;
    }

    /** Bytes of one span in an {@code Ingested} body, {@code {"p":<stream>,"i":<index>,"c":[<types>]}}, as Jackson writes it. */
    static long jsonBytes(Span span) {
        return 18 + typeBytes(span.stream().value()) + Long.toString(span.index()).length() + typesBytes(span) - 1;
    }

    // ---- the service

    private final StoreClient index;
    private final Clock clock;
    private final Decider<EpochState, EpochEvent> decider;

    /**
     * @param index the index table's client
     * @param clock the time written on the events ({@code Closed}'s is when the epoch closed)
     * @param conflicts how a writer that lost a race goes on
     */
    public AppendsEpoch(StoreClient index, Clock clock, Decider.Conflicts conflicts) {
        this.index = index;
        this.clock = clock;
        this.decider = new Decider<>(index, new Decider.Category<>(EpochState.empty(EpochId.ZERO), EpochState::evolve,
                e -> EventData.of(e.type(), encode(e)).withTimestamp(clock.instant()), null), conflicts);
    }

    /**
     * The whole epoch, folded. Eventually consistent: a stale read shows up as a conflict on the next write.
     *
     * @throws FeedFormatException at an event this version cannot read
     * @throws IllegalStateException when the epoch's events have a hole (a lagging replica, or a broken store)
     */
    public EpochState load(PartitionId partition, EpochId epoch) {
        return catchUp(partition, EpochState.empty(epoch), false);
    }

    /** {@code state} plus the epoch events written after it. */
    public EpochState catchUp(PartitionId partition, EpochState state, boolean consistent) {
        return decider.catchUp(stream(partition, state.epoch()), new Decider.Loaded<>(state, state.version()), consistent).state();
    }

    /**
     * Decides the next write on {@code state} and appends it calf-first (DESIGN.md, "Writing an epoch"); on a
     * conflict, follows the writer that won and decides again.
     *
     * @return the write decided on the epoch as it finally stood (nothing when that is closed), and the epoch after it
     * @throws Decider.TooManyConflictsException when other writers kept winning
     * @throws RuntimeException from DynamoDB (after the SDK's retries): the write may or may not have happened
     */
    public Decider.Transacted<EpochWrite, EpochState> transact(PartitionId partition, EpochState state, List<? extends Input> inputs,
                                                               java.util.Map<StreamName, Long> prior, EpochLimits limits, boolean allowGaps) {
        return decider.transact(stream(partition, state.epoch()), new Decider.Loaded<>(state, state.version()), s -> {
            EpochWrite w = decide(s, inputs, prior, limits, allowGaps);
            return new Decider.Decision<>(w, w.events());
        });
    }

    /** When the epoch was closed, from its last event (one query); empty while it is open or does not exist. */
    public Optional<Instant> closedAt(PartitionId partition, EpochId epoch) {
        List<StoredEvent> last = index.readAll(stream(partition, epoch), Read.backward().limit(1));
        return last.stream().filter(e -> EpochEvent.CLOSED.equals(e.type())).map(StoredEvent::timestamp).findFirst();
    }

    /**
     * An epoch this writer has just recorded as its partition's active one, without reading it: empty, its Tip
     * assumed absent. A write into an epoch another writer has begun conflicts on its first calf's key, and
     * catches up as after any conflict; so an epoch's roll costs no read.
     */
    public EpochState begun(PartitionId partition, EpochId epoch) {
        index.assumeNoTip(stream(partition, epoch));
        return EpochState.empty(epoch);
    }

    /**
     * Brings the epoch's Tip up to {@code state} unless this writer knows it is there: Tip-first readers
     * (equinox-js, Propulsion) and the notifier see the epoch only as far as its Tip says. Every append moves
     * the Tip; this covers one whose Tip update failed, and a load that found the Tip behind or absent.
     */
    public void ensureTip(PartitionId partition, EpochState state) {
        if (state.version() > 0) {
            index.ensureTip(stream(partition, state.epoch()), state.version());
        }
    }
}

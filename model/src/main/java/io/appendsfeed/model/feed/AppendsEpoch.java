package io.appendsfeed.model.feed;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.appendsfeed.model.Decider;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.EventData;
import io.appendsfeed.model.store.Read;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoredEvent;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * {@code $AppendsEpoch-<partition>_<epoch>}: stream name, events and their JSON, fold, a pure decide, and the
 * service that writes through the {@link Decider} (DESIGN.md, "Writing an epoch").
 *
 * <p>Invariants: {@code Ingested} events, then at most one {@code Closed}, the last; offsets run from 0 without
 * holes and stay below {@link Checkpoint#EPOCH_SIZE}; a closed epoch never changes. Each stream's spans in an
 * epoch follow one another without overlap or hole.
 */
public final class AppendsEpoch {

    public static StreamName stream(PartitionId partition, EpochId epoch) {
        return FeedStreams.epoch(partition, epoch);
    }

    /** JSON with the other implementations' field names: {@code Ingested {"add":[span],"app":[span]}}, {@code Closed {}}. */
    public sealed interface EpochEvent {
        String INGESTED = "Ingested";
        String CLOSED = "Closed";

        String type();

        /** {@code add}: the first span of each stream new to this epoch; {@code app}: spans of streams already in it. */
        record Ingested(List<Span> add, List<Span> app) implements EpochEvent {
            public Ingested {
                add = List.copyOf(Objects.requireNonNull(add, "add"));
                app = List.copyOf(Objects.requireNonNull(app, "app"));
            }

            public String type() { return INGESTED; }
        }

        record Closed() implements EpochEvent {
            public String type() { return CLOSED; }
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Compact UTF-8 JSON; the golden tests pin the bytes. */
    public static byte[] encode(EpochEvent event) {
        ObjectNode body = JSON.createObjectNode();
        if (event instanceof EpochEvent.Ingested ingested) {
            ArrayNode add = body.putArray("add"), app = body.putArray("app");
            ingested.add().forEach(span -> span.writeJson(add.addObject()));
            ingested.app().forEach(span -> span.writeJson(app.addObject()));
        }
        return body.toString().getBytes(StandardCharsets.UTF_8);
    }

    public static EpochEvent decode(StoredEvent e) {
        return decode(e.type(), e.data());
    }

    /** Unknown fields are ignored, a missing or null list is empty; a {@link FeedFormatException} for an unknown type or a bad body. */
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
            body = data == null ? JSON.missingNode() : JSON.readTree(data);
        } catch (IOException e) {
            throw new FeedFormatException(type, type + " body is not JSON: " + e.getMessage(), e);
        }
        if (!body.isObject() && !body.isMissingNode() && !body.isNull()) {
            throw new FeedFormatException(type, type + " body is a JSON " + body.getNodeType() + ", not an object");
        }
        return new EpochEvent.Ingested(spans(body, "add"), spans(body, "app"));
    }

    private static List<Span> spans(JsonNode body, String field) {
        JsonNode array = body.path(field);
        if (!array.isArray() && !array.isMissingNode() && !array.isNull()) {
            throw new FeedFormatException(EpochEvent.INGESTED, EpochEvent.INGESTED + " field '" + field + "' is not an array");
        }
        List<Span> spans = new ArrayList<>(array.size());
        for (JsonNode span : array) {
            try {
                spans.add(Span.readJson(span));
            } catch (IllegalArgumentException e) {
                throw new FeedFormatException(EpochEvent.INGESTED, EpochEvent.INGESTED + " has an invalid span in '" + field
                        + "' (" + e.getMessage() + ")");
            }
        }
        return spans;
    }

    /**
     * The fold of one epoch; persistent (vavr), so a failed write leaves it as it was.
     *
     * @param version epoch events so far (the next event's offset)
     * @param next stream → the index its next event gets; only moves forwards (a span behind it changes nothing)
     * @param bytes bytes of the event bodies so far
     * @param closedAt when {@code Closed} was written, null while open
     */
    public record EpochState(EpochId epoch, long version, io.vavr.collection.Map<StreamName, Long> next, long bytes, Instant closedAt) {

        public static EpochState empty(EpochId epoch) {
            return new EpochState(epoch, 0, io.vavr.collection.HashMap.empty(), 0, null);
        }

        public boolean isClosed() {
            return closedAt != null;
        }

        /** -1 when the epoch does not hold {@code stream}. */
        public long nextIndex(StreamName stream) {
            return next.getOrElse(stream, -1L);
        }

        public EpochState evolve(EpochEvent event, long bodyBytes, Instant at) {
            var m = next;
            if (event instanceof EpochEvent.Ingested ingested) {
                for (Span s : Stream.concat(ingested.add().stream(), ingested.app().stream()).toList()) {
                    m = s.nextIndex() > m.getOrElse(s.stream(), -1L) ? m.put(s.stream(), s.nextIndex()) : m;
                }
            }
            Instant closed = closedAt == null && event instanceof EpochEvent.Closed ? at : closedAt;
            return new EpochState(epoch, version + 1, m, bytes + bodyBytes, closed);
        }

        EpochState evolve(StoredEvent e) {
            return evolve(decode(e), e.data() == null ? 0 : e.data().length, e.timestamp());
        }
    }

    /**
     * An epoch closes with the {@code Ingested} that reaches a limit; the rest of the batch goes on in the next.
     *
     * @param maxBytes bytes of bodies: bounds what a cold indexer or a reader reads per epoch
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

    /** A span as delivered, and the types its stream's Tip held ending where it ends (or null): what a gap is healed from. */
    public interface Input {
        Span span();

        Span tip();
    }

    /**
     * What {@link #decide} decided to write next.
     *
     * @param consumed how many inputs, from the front, this decision settles (written, dropped or trimmed)
     * @param remainder the rest of input {@code consumed}'s span when it was too big for one write: it goes first in the next
     * @param healedEvents events taken from the Tip to fill a gap
     * @param allowedGaps spans let through past a gap (only with allowGaps)
     * @param gap where the decision stopped at a span that would leave a gap; {@code consumed} is its position
     */
    public record EpochWrite(EpochEvent.Ingested ingested, boolean close, int consumed, Span remainder, long duplicateEvents,
                             long healedEvents, List<Gap> allowedGaps, Gap gap) {

        /** A span starting after its stream's next index in the feed. */
        public record Gap(StreamName stream, long expectedIndex, long actualIndex) {}

        /** Events of the store's streams this write adds to the feed. */
        public long acceptedEvents() {
            return ingested == null ? 0 : Stream.concat(ingested.add().stream(), ingested.app().stream()).mapToLong(Span::count).sum();
        }

        public List<EpochEvent> events() {
            return Stream.<EpochEvent>of(ingested, close ? new EpochEvent.Closed() : null).filter(Objects::nonNull).toList();
        }
    }

    /** Largest {@code Ingested} body per write: keeps each calf well under the 400 KB item limit. */
    public static final int INGESTED_MAX_BYTES = 64 * 1024;

    /**
     * The next write, pure: drops what the feed holds, trims overlaps, fills a gap from the Tip when it can,
     * stops at one it cannot, keeps one span per stream and write, and closes where a limit is reached. Exactly
     * once: a stream's next index is where its span in this write ends, else the epoch's, else {@code prior}'s;
     * only what lies from there on is written. Bytes are counted as {@link #encode} writes them.
     *
     * @param prior next indexes from earlier epochs of streams this epoch does not hold (in neither: taken as it starts)
     * @param allowGaps let spans past a gap through instead of stopping there
     */
    public static EpochWrite decide(EpochState state, List<? extends Input> inputs, Map<StreamName, Long> prior,
                                    EpochLimits limits, boolean allowGaps) {
        if (state.isClosed() || state.version() >= limits.maxEvents()) { // reached by another writer without closing
            return new EpochWrite(null, !state.isClosed(), 0, null, 0, 0, List.of(), null);
        }
        Map<StreamName, Span> add = new LinkedHashMap<>(), app = new LinkedHashMap<>();
        List<EpochWrite.Gap> allowedGaps = new ArrayList<>();
        long bytes = "{\"add\":[],\"app\":[]}".length(), duplicates = 0, healed = 0;
        boolean close = false;
        EpochWrite.Gap gap = null;
        Span remainder = null;
        int k = 0;
        for (; k < inputs.size(); k++) {
            Span span = inputs.get(k).span();
            StreamName stream = span.stream();
            Map<StreamName, Span> into = state.next().containsKey(stream) ? app : add;
            Span written = into.get(stream);
            long next = written != null ? written.nextIndex() : state.next().getOrElse(stream, prior.getOrDefault(stream, -1L));
            long healing = 0;
            EpochWrite.Gap allowedGap = null;
            if (span.nextIndex() <= next) { // the feed holds all of it
                duplicates += span.count();
                continue;
            }
            if (span.index() < next) { // the feed holds its start
                duplicates += next - span.index();
                span = span.from(next);
            } else if (next >= 0 && span.index() > next) { // a gap: fill it from the Tip, let it through, or stop at it
                Span tip = inputs.get(k).tip();
                if (tip != null && tip.index() <= next) {
                    healing = span.index() - next;
                    span = tip.from(next);
                } else if (!allowGaps) {
                    gap = new EpochWrite.Gap(stream, next, span.index());
                    break;
                } else if (written != null) {
                    break; // one span per stream and write: it goes in the next, which lets the gap through
                } else {
                    allowedGap = new EpochWrite.Gap(stream, next, span.index());
                }
            }
            boolean first = state.version() == 0 && add.isEmpty() && app.isEmpty(); // taken whatever its size
            boolean newStream = into == add && written == null;
            long head = written != null ? 0 : (into.isEmpty() ? 0 : 1) + span.headBytes(); // a comma between spans
            long spanBytes = head + span.typesBytes();
            if (!first && (state.bytes() + bytes + spanBytes > limits.maxBytes()
                    || newStream && state.next().size() + add.size() >= limits.maxStreams())) {
                close = true;
                break;
            }
            if (bytes + spanBytes > INGESTED_MAX_BYTES) { // what fits (one event into an empty write); the rest goes next
                int fits = Math.max(span.typesWithin(INGESTED_MAX_BYTES - bytes - head), add.isEmpty() && app.isEmpty() ? 1 : 0);
                if (fits == 0) {
                    break;
                }
                remainder = span.from(span.index() + fits);
                span = span.prefix(fits);
                spanBytes = head + span.typesBytes();
            }
            into.put(stream, written != null ? written.concat(span) : span);
            bytes += spanBytes;
            healed += healing;
            if (allowedGap != null) {
                allowedGaps.add(allowedGap);
            }
            if (remainder != null) {
                break;
            }
        }
        EpochEvent.Ingested ingested = add.isEmpty() && app.isEmpty() ? null
                : new EpochEvent.Ingested(new ArrayList<>(add.values()), new ArrayList<>(app.values()));
        close = close || ingested != null && state.version() + 1 >= limits.maxEvents(); // the Ingested reaching maxEvents is the last
        return new EpochWrite(ingested, close, k, remainder, duplicates, healed, allowedGaps, gap);
    }

    private final StoreClient index;
    private final Decider<EpochState, EpochEvent> decider;

    /** @param clock the time written on the events ({@code Closed}'s is when the epoch closed) */
    public AppendsEpoch(StoreClient index, Clock clock, Decider.Conflicts conflicts) {
        this.index = index;
        this.decider = new Decider<>(index, new Decider.Category<>(EpochState.empty(EpochId.ZERO), EpochState::evolve,
                e -> EventData.of(e.type(), encode(e)).withTimestamp(clock.instant()), null), conflicts);
    }

    /** The whole epoch, eventually consistent (a stale read costs a conflict on the next write). */
    public EpochState load(PartitionId partition, EpochId epoch) {
        return catchUp(partition, EpochState.empty(epoch), false);
    }

    /** {@code state} plus the epoch events written after it. */
    public EpochState catchUp(PartitionId partition, EpochState state, boolean consistent) {
        return decider.catchUp(stream(partition, state.epoch()), new Decider.Loaded<>(state, state.version()), consistent).state();
    }

    /**
     * Decides the next write on {@code state} and appends it calf-first; on a conflict, follows the winner and decides again.
     *
     * @throws Decider.TooManyConflictsException when other writers kept winning
     */
    public Decider.Transacted<EpochWrite, EpochState> transact(PartitionId partition, EpochState state, List<? extends Input> inputs,
                                                               Map<StreamName, Long> prior, EpochLimits limits, boolean allowGaps) {
        return decider.transact(stream(partition, state.epoch()), new Decider.Loaded<>(state, state.version()), s -> {
            EpochWrite w = decide(s, inputs, prior, limits, allowGaps);
            return new Decider.Decision<>(w, w.events());
        });
    }

    /** When the epoch was closed (one query); empty while it is open or does not exist. */
    public Optional<Instant> closedAt(PartitionId partition, EpochId epoch) {
        List<StoredEvent> last = index.readAll(stream(partition, epoch), Read.backward().limit(1));
        return last.stream().filter(e -> EpochEvent.CLOSED.equals(e.type())).map(StoredEvent::timestamp).findFirst();
    }

    /**
     * Moves the Tip up to {@code state} unless known to be there: Tip-first readers and the notifier see an epoch only
     * that far. A write ({@link #transact}) leaves the Tip behind its calf; its writer moves it.
     */
    public void ensureTip(PartitionId partition, EpochState state) {
        if (state.version() > 0) {
            index.ensureTip(stream(partition, state.epoch()), state.version());
        }
    }
}

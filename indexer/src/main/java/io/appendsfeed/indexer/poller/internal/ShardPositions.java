package io.appendsfeed.indexer.poller.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.AppendResult;
import io.appendsfeed.model.store.Expected;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoredUnfold;
import io.appendsfeed.model.store.Tip;
import io.appendsfeed.model.store.Unfold;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The poller's lease on a store table and its position in every shard: the Tip of
 * {@code $AppendsPoller-<store table>} in the index table, with two unfolds (part of the storage format):
 * {@code Positions {<shard id>: {seq, done}}} and {@code Lease {owner, token, expiresAt}}. Written only by
 * the lease's holder, on the Tip's etag; the positions in memory are what the item holds as of this
 * poller's last write known to have landed. After a lost answer or a failed condition, this poller lets the
 * lease go and takes it again through {@link #tryAcquire()}, which reads the item back: under this poller's
 * owner name (its write landed, or did not) it loads the positions saved there; under another's, it stands by.
 * Not a {@link io.appendsfeed.model.Decider} stream: rewritten in place on every save and renewal. Thread-safe.
 */
public final class ShardPositions {

    public static final String CATEGORY = "$AppendsPoller";
    private static final String POSITIONS = "Positions";
    private static final String LEASE = "Lease";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Logger log = LoggerFactory.getLogger(ShardPositions.class);

    /** Where a shard was left: after {@code sequenceNumber} (null: nothing read yet); {@code done} once drained. */
    public record Position(String sequenceNumber, boolean done) {}

    /** The right to save positions; {@code token} is new on every acquisition, so that a poller tells its own writes apart. */
    public record Lease(String owner, String token, Instant expiresAt) {}

    /** The item as read; {@code lease} null when no poller ever held it, {@code etag} null when there is no item yet. */
    public record Saved(Map<String, Position> positions, Lease lease, String etag) {}

    private final StoreClient index;
    private final StreamName stream;
    private final String owner;
    private final Duration leaseDuration;
    private final Clock clock;
    private Map<String, Position> positions = Map.of();
    private String etag;
    private String token;
    private Instant renewedAt = Instant.MIN;

    public ShardPositions(StoreClient index, String storeTable, String owner, Duration leaseDuration, Clock clock) {
        this.index = index;
        this.stream = StreamName.of(CATEGORY, storeTable);
        this.owner = owner;
        this.leaseDuration = leaseDuration;
        this.clock = clock;
    }

    /** The item, read strongly consistent. @throws IllegalStateException naming the stream when it is not readable */
    public static Saved read(StoreClient index, String storeTable) {
        StreamName stream = StreamName.of(CATEGORY, storeTable);
        Tip tip = index.readTip(stream, true).orElse(null);
        if (tip == null) {
            return new Saved(Map.of(), null, null);
        }
        Map<String, Position> positions = new TreeMap<>();
        Lease lease = null;
        try {
            for (StoredUnfold u : tip.unfolds()) {
                JsonNode o = JSON.readTree(u.data());
                if (o == null || !o.isObject()) {
                    throw new IOException(u.type() + " is not a JSON object");
                }
                if (POSITIONS.equals(u.type())) {
                    o.fields().forEachRemaining(e -> positions.put(e.getKey(),
                            new Position(e.getValue().path("seq").textValue(), e.getValue().path("done").asBoolean(false))));
                } else if (LEASE.equals(u.type())) {
                    if (o.path("owner").asText().isEmpty() || o.path("token").asText().isEmpty()) {
                        throw new IOException("Lease has no owner or token: " + o);
                    }
                    lease = new Lease(o.path("owner").asText(), o.path("token").asText(), Instant.parse(o.path("expiresAt").asText()));
                }
            }
        } catch (IOException | DateTimeParseException e) {
            throw new IllegalStateException("the poller's positions in " + stream + " are not readable (" + e.getMessage()
                    + "); delete the stream's items to start the poller from the oldest records (duplicates are dropped by"
                    + " the indexer)", e);
        }
        return new Saved(Map.copyOf(positions), lease, tip.etag());
    }

    public synchronized boolean holdsLease() {
        return token != null;
    }

    /**
     * Takes the lease when it is free, expired or held under this poller's owner name (a restart), and
     * loads the saved positions.
     *
     * @return false when another poller holds it unexpired, or took it first
     * @throws RuntimeException from DynamoDB; the lease is not held then (a write that landed is found by the next call)
     */
    public synchronized boolean tryAcquire() {
        if (token != null) {
            return true;
        }
        Saved item = read(index, stream.id());
        Instant now = clock.instant();
        Lease held = item.lease();
        if (held != null && !held.owner().equals(owner) && now.isBefore(held.expiresAt())) {
            log.debug("{}: lease held by {} until {}; standing by", stream, held.owner(), held.expiresAt());
            return false;
        }
        String mine = UUID.randomUUID().toString();
        AppendResult r = index.writeUnfolds(stream, item.etag() == null ? Expected.noStream() : Expected.etag(item.etag()),
                unfolds(item.positions(), mine, now.plus(leaseDuration)));
        if (!(r instanceof AppendResult.Written w)) {
            log.info("{}: another poller took the lease first; standing by", stream);
            return false;
        }
        positions = item.positions();
        etag = w.etag();
        token = mine;
        renewedAt = now;
        log.info("{}: lease taken by {} (was {}), {} shard position(s) loaded", stream, owner,
                held == null ? "free" : held.owner() + " until " + held.expiresAt(), positions.size());
        return true;
    }

    public synchronized Position get(String shardId) {
        return positions.get(shardId);
    }

    public synchronized boolean isDone(String shardId) {
        Position p = positions.get(shardId);
        return p != null && p.done();
    }

    /**
     * Saves a shard's position (dropping shards no longer {@code listed}) and renews the lease.
     *
     * @return false when this poller does not hold the lease (or lost it on the way): nothing was written
     * @throws RuntimeException from DynamoDB: the lease is let go; {@link #tryAcquire()} reads back whether the write landed
     */
    public synchronized boolean save(String shardId, Position position, Set<String> listed) {
        return write(p -> {
            p.put(shardId, position);
            p.keySet().removeIf(s -> !listed.contains(s) && !s.equals(shardId));
        });
    }

    /** Renews the lease when a third of it has passed since the last write; false when the lease is not held (or was let go). */
    public synchronized boolean renewIfDue() {
        if (token == null) {
            return false;
        }
        return clock.instant().isBefore(renewedAt.plus(leaseDuration.dividedBy(3))) || write(p -> {});
    }

    /** Gives the lease up (another poller may take it at once); a failure is logged, and the lease then expires. */
    public synchronized void release() {
        if (token == null) {
            return;
        }
        try {
            AppendResult r = index.writeUnfolds(stream, Expected.etag(etag), unfolds(positions, token, clock.instant()));
            log.info("{}: lease {}", stream, r instanceof AppendResult.Written ? "released by " + owner : "already lost");
        } catch (RuntimeException e) {
            log.warn("{}: lease not released ({}); it expires within {}", stream, e.toString(), leaseDuration);
        }
        token = null;
    }

    private boolean write(Consumer<Map<String, Position>> change) {
        if (token == null) {
            return false;
        }
        Map<String, Position> next = new TreeMap<>(positions);
        change.accept(next);
        Instant now = clock.instant();
        AppendResult r;
        try {
            r = index.writeUnfolds(stream, Expected.etag(etag), unfolds(next, token, now.plus(leaseDuration)));
        } catch (RuntimeException e) {
            token = null; // it may have landed: tryAcquire() reads back what the item holds
            throw e;
        }
        if (r instanceof AppendResult.Written w) {
            positions = Map.copyOf(next);
            etag = w.etag();
            renewedAt = now;
            return true;
        }
        // someone wrote since: this poller (an SDK retry of a write that landed) or another, which took the lease
        log.info("{}: the positions changed under this poller's write; reading them back to take the lease again", stream);
        token = null;
        return false;
    }

    private List<Unfold> unfolds(Map<String, Position> positions, String token, Instant expiresAt) {
        ObjectNode p = JSON.createObjectNode();
        positions.forEach((s, at) -> {
            ObjectNode n = p.putObject(s);
            if (at.sequenceNumber() != null) {
                n.put("seq", at.sequenceNumber());
            }
            if (at.done()) {
                n.put("done", true);
            }
        });
        ObjectNode l = JSON.createObjectNode().put("owner", owner).put("token", token).put("expiresAt", expiresAt.toString());
        return List.of(Unfold.json(POSITIONS, p.toString()), Unfold.json(LEASE, l.toString()));
    }
}

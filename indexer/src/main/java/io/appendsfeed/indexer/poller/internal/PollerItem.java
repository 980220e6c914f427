package io.appendsfeed.indexer.poller.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.StoredUnfold;
import io.appendsfeed.model.store.Tip;
import io.appendsfeed.model.store.Unfold;
import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What the Tip of {@code $AppendsPoller-<store table>} in the index table holds, as two unfolds
 * (part of the storage format): {@code Positions {<shard id>: {seq, done}}}, where each shard was
 * left, and {@code Lease {owner, token, expiresAt}}, which poller may write them until when.
 *
 * @param etag the Tip's etag when read (null: no Tip yet), for the next conditional write
 * @param lease null when no poller ever held it (or the item predates leases)
 */
public record PollerItem(Map<String, Position> positions, Lease lease, String etag) {

    public static final String CATEGORY = "$AppendsPoller";
    public static final String POSITIONS = "Positions";
    public static final String LEASE = "Lease";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Where a shard was left: after {@code sequenceNumber} (null: nothing read yet); {@code done} once drained. */
    public record Position(String sequenceNumber, boolean done) {}

    /**
     * The right to save positions. {@code token} is new on every acquisition, so a poller tells its own
     * writes from those of another instance that uses the same owner name.
     */
    public record Lease(String owner, String token, Instant expiresAt) {
        public Lease {
            Objects.requireNonNull(owner, "owner");
            Objects.requireNonNull(token, "token");
            Objects.requireNonNull(expiresAt, "expiresAt");
        }

        public boolean heldBy(String owner, String token) {
            return this.owner.equals(owner) && this.token.equals(token);
        }
    }

    public PollerItem {
        positions = Collections.unmodifiableMap(new TreeMap<>(positions));
    }

    public static StreamName stream(String storeTable) {
        return StreamName.of(CATEGORY, storeTable);
    }

    /** @throws IllegalStateException naming the stream when an unfold is not readable */
    public static PollerItem of(StreamName stream, Tip tip) {
        Map<String, Position> positions = new TreeMap<>();
        Lease lease = null;
        for (StoredUnfold u : tip.unfolds()) {
            if (POSITIONS.equals(u.type())) {
                for (Iterator<Map.Entry<String, JsonNode>> it = read(stream, u).fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> e = it.next();
                    JsonNode seq = e.getValue().get("seq");
                    positions.put(e.getKey(), new Position(seq == null ? null : seq.asText(), e.getValue().path("done").asBoolean(false)));
                }
            } else if (LEASE.equals(u.type())) {
                JsonNode o = read(stream, u);
                String owner = o.path("owner").asText();
                String token = o.path("token").asText();
                if (owner.isEmpty() || token.isEmpty()) {
                    throw unreadable(stream, new IOException("Lease has no owner or token: " + o));
                }
                try {
                    lease = new Lease(owner, token, Instant.parse(o.path("expiresAt").asText()));
                } catch (DateTimeParseException e) {
                    throw unreadable(stream, e);
                }
            }
        }
        return new PollerItem(positions, lease, tip.etag());
    }

    public static PollerItem none() {
        return new PollerItem(Map.of(), null, null);
    }

    /** The unfolds for a write of these positions under this lease. */
    public static List<Unfold> unfolds(Map<String, Position> positions, Lease lease) {
        ObjectNode p = JSON.createObjectNode();
        positions.forEach((s, at) -> {
            ObjectNode n = p.putObject(s);
            if (at.sequenceNumber() != null) n.put("seq", at.sequenceNumber());
            if (at.done()) n.put("done", true);
        });
        ObjectNode l = JSON.createObjectNode().put("owner", lease.owner()).put("token", lease.token())
                .put("expiresAt", lease.expiresAt().toString());
        return List.of(Unfold.json(POSITIONS, p.toString()), Unfold.json(LEASE, l.toString()));
    }

    private static JsonNode read(StreamName stream, StoredUnfold u) {
        try {
            JsonNode o = JSON.readTree(u.data());
            if (o == null || !o.isObject()) {
                throw new IOException(u.type() + " is not a JSON object");
            }
            return o;
        } catch (IOException e) {
            throw unreadable(stream, e);
        }
    }

    private static IllegalStateException unreadable(StreamName stream, Exception e) {
        return new IllegalStateException("the poller's positions in " + stream + " are not readable (" + e.getMessage()
                + "); delete the stream's items to start the poller from the oldest records (duplicates are dropped by"
                + " the indexer)", e);
    }
}

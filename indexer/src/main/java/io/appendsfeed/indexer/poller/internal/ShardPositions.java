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
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The poller's position in every shard, kept as the {@code Positions} unfold of
 * {@code $AppendsPoller-<store table>} in the index table and replaced with a condition on the
 * Tip's etag, so that a second poller on the same table is noticed instead of overwriting.
 */
public final class ShardPositions {

    public static final String CATEGORY = "$AppendsPoller";
    public static final String UNFOLD = "Positions";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Where a shard was left: after {@code sequenceNumber} (null: nothing read yet); {@code done} once drained. */
    public record Position(String sequenceNumber, boolean done) {}

    private final StoreClient index;
    private final StreamName stream;
    private final Map<String, Position> positions = new TreeMap<>();
    private String etag;

    public ShardPositions(StoreClient index, String storeTable) {
        this.index = index;
        this.stream = StreamName.of(CATEGORY, storeTable);
        Optional<Tip> tip = index.readTip(stream, true);
        tip.ifPresent(t -> {
            etag = t.etag();
            for (StoredUnfold u : t.unfolds()) {
                if (UNFOLD.equals(u.type())) {
                    read(u.data());
                }
            }
        });
    }

    public Position get(String shardId) {
        return positions.get(shardId);
    }

    public boolean isDone(String shardId) {
        Position p = positions.get(shardId);
        return p != null && p.done();
    }

    /**
     * Records and saves a shard's position, dropping shards no longer in {@code listed}.
     *
     * @throws IllegalStateException when another poller wrote the positions since this one read them
     */
    public void save(String shardId, Position position, Set<String> listed) {
        positions.put(shardId, position);
        positions.keySet().removeIf(s -> !listed.contains(s) && !s.equals(shardId));
        ObjectNode o = JSON.createObjectNode();
        positions.forEach((s, p) -> {
            ObjectNode n = o.putObject(s);
            if (p.sequenceNumber() != null) n.put("seq", p.sequenceNumber());
            if (p.done()) n.put("done", true);
        });
        Expected expected = etag == null ? Expected.noStream() : Expected.etag(etag);
        AppendResult r = index.writeUnfolds(stream, expected, java.util.List.of(Unfold.json(UNFOLD, o.toString())));
        if (r instanceof AppendResult.Written w) {
            etag = w.etag();
        } else {
            throw new IllegalStateException("the shard positions in " + stream + " were changed by someone else: is a second"
                    + " poller running on this table? Only one may run; stop the other and restart this one");
        }
    }

    private void read(byte[] data) {
        try {
            JsonNode o = JSON.readTree(data);
            for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                JsonNode seq = e.getValue().get("seq");
                positions.put(e.getKey(), new Position(seq == null ? null : seq.asText(), e.getValue().path("done").asBoolean(false)));
            }
        } catch (IOException e) {
            throw new IllegalStateException("the shard positions in " + stream + " are not readable JSON; delete the stream's"
                    + " items to start the poller from the oldest records (duplicates are dropped by the indexer)", e);
        }
    }
}

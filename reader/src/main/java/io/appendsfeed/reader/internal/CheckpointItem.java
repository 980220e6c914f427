package io.appendsfeed.reader.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.store.StoredUnfold;
import io.appendsfeed.model.store.Tip;
import io.appendsfeed.model.store.Unfold;
import io.appendsfeed.reader.Lease;
import io.appendsfeed.reader.StoredCheckpoint;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The Tip of {@code $ReaderCheckpoint-<group>_<partition>}: unfolds {@code Checkpoint {pos, at, by}}
 * and {@code Lease {owner, token, expiresAt}}. Unfolds of other types (a newer writer's) are
 * carried over untouched. These names and fields define the storage format.
 */
public record CheckpointItem(String group, PartitionId partition, Optional<StoredCheckpoint> checkpoint,
                             Optional<Lease> lease, List<Unfold> others) {

    public static final String CHECKPOINT = "Checkpoint";
    public static final String LEASE = "Lease";
    public static final String OVERRIDDEN = "Overridden";

    public static CheckpointItem from(String group, PartitionId partition, Optional<Tip> tip) {
        Optional<StoredCheckpoint> checkpoint = Optional.empty();
        Optional<Lease> lease = Optional.empty();
        List<Unfold> others = new ArrayList<>();
        if (tip.isPresent()) {
            String where = tip.get().stream().value();
            for (StoredUnfold u : tip.get().unfolds()) {
                if (u.type().equals(CHECKPOINT)) {
                    JsonNode o = Json.parse(where, u.type(), u.data());
                    checkpoint = Optional.of(new StoredCheckpoint(group, partition, new Checkpoint(Json.number(where, o, "pos")),
                            Json.instant(where, o, "at"), Json.text(where, o, "by")));
                } else if (u.type().equals(LEASE)) {
                    JsonNode o = Json.parse(where, u.type(), u.data());
                    lease = Optional.of(new Lease(group, partition, Json.text(where, o, "owner"), Json.text(where, o, "token"),
                            Json.instant(where, o, "expiresAt")));
                } else {
                    others.add(new Unfold(u.type(), u.data(), u.meta()));
                }
            }
        }
        return new CheckpointItem(group, partition, checkpoint, lease, List.copyOf(others));
    }

    public CheckpointItem withCheckpoint(StoredCheckpoint c) {
        return new CheckpointItem(group, partition, Optional.of(c), lease, others);
    }

    /** @param l null to release */
    public CheckpointItem withLease(Lease l) {
        return new CheckpointItem(group, partition, checkpoint, Optional.ofNullable(l), others);
    }

    public List<Unfold> unfolds() {
        List<Unfold> out = new ArrayList<>();
        checkpoint.ifPresent(c -> {
            ObjectNode o = Json.object().put("pos", c.checkpoint().value()).put("at", c.committedAt().toString())
                    .put("by", c.committedBy());
            out.add(new Unfold(CHECKPOINT, Json.bytes(o), null));
        });
        lease.ifPresent(l -> {
            ObjectNode o = Json.object().put("owner", l.owner()).put("token", l.token())
                    .put("expiresAt", l.expiresAt().toString());
            out.add(new Unfold(LEASE, Json.bytes(o), null));
        });
        out.addAll(others);
        return out;
    }
}

package io.appendsfeed.reader.internal;

import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.reader.CheckpointStore.CheckpointOverride;
import io.appendsfeed.reader.CheckpointStore;
import io.appendsfeed.reader.CheckpointStore.CommitResult;
import io.appendsfeed.reader.InMemoryCheckpointStore;
import io.appendsfeed.reader.LeaseStore.Lease;
import io.appendsfeed.reader.CheckpointStore.StoredCheckpoint;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** Hands every call to an in-memory store; tests override the calls they want to watch or hook. */
public class DelegatingStore implements CheckpointStore {

    protected final InMemoryCheckpointStore real;

    public DelegatingStore(InMemoryCheckpointStore real) {
        this.real = real;
    }

    @Override public Optional<StoredCheckpoint> read(String g, PartitionId p) { return real.read(g, p); }
    @Override public CommitResult commit(String g, PartitionId p, Checkpoint to, String by, Lease fence) {
        return real.commit(g, p, to, by, fence);
    }
    @Override public StoredCheckpoint override(String g, PartitionId p, Checkpoint to, String reason) {
        return real.override(g, p, to, reason);
    }
    @Override public CommitResult overrideHeld(String g, PartitionId p, Checkpoint to, String reason, Lease lease) {
        return real.overrideHeld(g, p, to, reason, lease);
    }
    @Override public List<CheckpointOverride> overrides(String g, PartitionId p) { return real.overrides(g, p); }
    @Override public List<StoredCheckpoint> list(String g) { return real.list(g); }
    @Override public List<String> groups() { return real.groups(); }
    @Override public Optional<Lease> tryAcquire(String g, PartitionId p, String owner, Duration t) {
        return real.tryAcquire(g, p, owner, t);
    }
    @Override public Optional<Lease> renew(Lease l, Duration t) { return real.renew(l, t); }
    @Override public void release(Lease l) { real.release(l); }
    @Override public Optional<Lease> current(String g, PartitionId p) { return real.current(g, p); }
    @Override public List<String> heartbeat(String g, String owner, Duration t) { return real.heartbeat(g, owner, t); }
    @Override public void leave(String g, String owner) { real.leave(g, owner); }
}

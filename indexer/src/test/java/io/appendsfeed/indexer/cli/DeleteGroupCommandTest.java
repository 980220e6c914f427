package io.appendsfeed.indexer.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import io.appendsfeed.reader.CheckpointStore.CommitResult;
import io.appendsfeed.reader.DynamoCheckpointStore;
import io.appendsfeed.reader.DynamoCheckpointStore.GroupDeletion;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(LocalDynamoExtension.class)
class DeleteGroupCommandTest {

    private static final PartitionId P0 = PartitionId.of(0);
    private static final PartitionId P1 = PartitionId.of(1);

    private CliFeed feed;
    private DynamoCheckpointStore checkpoints;

    @BeforeEach
    void setUp(LocalDynamo local) {
        feed = new CliFeed(local, 2);
        feed.ingest(feed.write(feed.streamIn("Account", 0, 0), "Opened"));
        feed.ingest(feed.write(feed.streamIn("Account", 1, 0), "Opened"));
        checkpoints = new DynamoCheckpointStore(local.dynamo(), feed.indexTable, Clock.systemUTC());
        commit("audit", P0, Checkpoint.of(0, 1));
    }

    @Test
    void a_group_made_by_a_typo_can_be_deleted_and_the_deletion_is_recorded() {
        assertThat(feed.feed("checkpoints", "set", "--group", "adit", "--partition", "0", "--to", "start", "--reason", "typo",
                "--create-group", "--yes").exit()).isEqualTo(0);
        commit("adit", P1, Checkpoint.of(0, 1));

        CliFeed.Run preview = feed.feed("checkpoints", "delete", "--group", "adit");
        assertThat(preview.exit()).isEqualTo(0);
        assertThat(preview.out()).contains("group adit: 2 checkpoints", "partition 0: 0/0 (0)", "partition 1: 0/1 (1)",
                "nothing changed: run again with --yes");
        assertThat(checkpoints.groups()).containsExactly("adit", "audit");

        CliFeed.Run r = feed.feed("checkpoints", "delete", "--group", "adit", "--reason", "typo of audit", "--by", "alice", "--yes");

        assertThat(r.exit()).as(r.err()).isEqualTo(0);
        assertThat(r.out()).contains("done: group adit deleted");
        assertThat(checkpoints.groups()).containsExactly("audit");
        assertThat(checkpoints.read("adit", P0)).isEmpty();
        assertThat(checkpoints.read("adit", P1)).isEmpty();
        assertThat(checkpoints.overrides("adit", P0)).as("its streams are gone").isEmpty();
        assertThat(checkpoints.read("audit", P0)).isPresent();
        assertThat(feed.feed("checkpoints").out()).doesNotContain("adit");

        assertThat(checkpoints.deletions("adit")).singleElement().satisfies(d -> {
            assertThat(d.by()).isEqualTo("alice");
            assertThat(d.reason()).isEqualTo("typo of audit");
            assertThat(d.checkpoints()).containsEntry(P0, Checkpoint.START).containsEntry(P1, Checkpoint.of(0, 1));
        });
        CliFeed.Run history = feed.feed("checkpoints", "history", "--group", "adit");
        assertThat(history.out()).containsPattern("\\S+Z\\s+1\\s+0/1\\s+deleted\\s+alice\\s+typo of audit");
    }

    @Test
    void a_group_made_again_after_its_deletion_starts_afresh() {
        assertThat(feed.feed("checkpoints", "delete", "--group", "audit", "--yes").exit()).isEqualTo(0);
        assertThat(checkpoints.deletions("audit")).singleElement().satisfies(d -> assertThat(d.by()).isEqualTo(System.getProperty("user.name")));
        assertThat(feed.feed("checkpoints", "set", "--group", "audit", "--partition", "0", "--to", "start", "--reason", "x", "--yes").exit())
                .as("deleted: it needs --create-group again").isEqualTo(2);
        commit("audit", P1, Checkpoint.of(0, 1));
        assertThat(checkpoints.groups()).containsExactly("audit");
        assertThat(checkpoints.read("audit", P0)).isEmpty();
    }

    @Test
    void deleting_a_group_a_reader_holds_is_refused_and_changes_nothing() {
        assertThat(checkpoints.tryAcquire("audit", P0, "audit-host-1", Duration.ofMinutes(1))).isPresent();

        CliFeed.Run r = feed.feed("checkpoints", "delete", "--group", "audit", "--yes");

        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).contains("partition 0 of group audit is held by audit-host-1", "stop the group's readers");
        assertThat(checkpoints.groups()).containsExactly("audit");
        assertThat(checkpoints.read("audit", P0)).isPresent();
        assertThat(checkpoints.deletions("audit")).isEmpty();
        assertThat(checkpoints.deleteGroup("audit", "x", "y")).isInstanceOf(GroupDeletion.Leased.class);
    }

    @Test
    void deleting_a_group_that_does_not_exist_is_refused_naming_the_groups() {
        CliFeed.Run r = feed.feed("checkpoints", "delete", "--group", "adit", "--yes");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("group 'adit' does not exist", "groups: audit");
        assertThat(checkpoints.deletions("adit")).isEmpty();
    }

    private void commit(String group, PartitionId p, Checkpoint to) {
        assertThat(checkpoints.commit(group, p, to, "test", null)).isInstanceOf(CommitResult.Committed.class);
    }
}

package io.appendsfeed.indexer.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import io.appendsfeed.reader.CheckpointStore.CheckpointOverride;
import io.appendsfeed.reader.CheckpointStore.CommitResult;
import io.appendsfeed.reader.DynamoCheckpointStore;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(LocalDynamoExtension.class)
class CheckpointsCommandTest {

    private static final PartitionId P0 = PartitionId.of(0);
    private static final PartitionId P1 = PartitionId.of(1);

    private CliFeed feed;
    private DynamoCheckpointStore checkpoints;

    /** Two partitions: p0 has a closed epoch of 3 entries (2 Ingested + Closed) and 2 entries in epoch 1; p1 has 1 entry. */
    @BeforeEach
    void setUp(LocalDynamo local) {
        feed = new CliFeed(local, 2);
        String a = feed.streamIn("Account", 0, 0);
        String b = feed.streamIn("Account", 1, 0);
        feed.ingest(feed.write(a, "Opened"));
        feed.ingest(feed.write(a, "Deposited"));
        feed.closeEpoch(0);
        feed.ingest(feed.write(a, "Deposited"), feed.write(b, "Opened"));
        feed.ingest(feed.write(a, "Closed"));
        checkpoints = new DynamoCheckpointStore(local.dynamo(), feed.indexTable, Clock.systemUTC());
    }

    @Test
    void lists_every_group_and_partition_with_checkpoint_lag_and_committer() {
        commit("projector", P0, Checkpoint.of(0, 1));
        commit("projector", P1, Checkpoint.of(0, 1));
        commit("mailer", P0, Checkpoint.of(1, 2));

        CliFeed.Run r = feed.feed("checkpoints");

        assertThat(r.exit()).as(r.err()).isEqualTo(0);
        List<String> lines = r.out().lines().toList();
        assertThat(lines.get(0)).matches("GROUP\\s+PARTITION\\s+CHECKPOINT\\s+TAIL\\s+LAG EVENTS\\s+LAG TIME\\s+COMMITTED\\s+BY\\s+LEASE");
        // groups sorted; p0's tail is 1/2; from 0/1: entry 0/1, the Closed 0/2, then 1/0 and 1/1 = 4 behind
        assertThat(lines.get(1)).matches("mailer\\s+0\\s+1/2\\s+1/2\\s+0\\s+0s\\s+\\S+Z\\s+test\\s+-");
        assertThat(lines.get(2)).matches("projector\\s+0\\s+0/1\\s+1/2\\s+4\\s+\\d+\\S*\\s+\\S+Z\\s+test\\s+-");
        assertThat(lines.get(3)).matches("projector\\s+1\\s+0/1\\s+0/1\\s+0\\s+0s\\s+\\S+Z\\s+test\\s+-");
        assertThat(lines).hasSize(4);
    }

    @Test
    void json_lists_the_same_with_raw_values() throws Exception {
        commit("projector", P0, Checkpoint.of(0, 1));

        CliFeed.Run r = feed.feed("checkpoints", "--group", "projector", "--json");

        assertThat(r.exit()).as(r.err()).isEqualTo(0);
        JsonNode rows = new ObjectMapper().readTree(r.out());
        assertThat(rows).hasSize(1);
        assertThat(rows.get(0).get("group").asText()).isEqualTo("projector");
        assertThat(rows.get(0).get("checkpoint").asLong()).isEqualTo(1);
        assertThat(rows.get(0).get("position").asText()).isEqualTo("0/1");
        assertThat(rows.get(0).get("tail").asLong()).isEqualTo(1_000_002);
        assertThat(rows.get(0).get("lagEvents").asLong()).isEqualTo(4);
        assertThat(rows.get(0).get("lagMillis").asLong()).isGreaterThanOrEqualTo(0);
        assertThat(rows.get(0).get("committedBy").asText()).isEqualTo("test");
    }

    @Test
    void unknown_group_exits_1_and_names_the_groups_there_are() {
        commit("projector", P0, Checkpoint.of(0, 1));
        CliFeed.Run r = feed.feed("checkpoints", "--group", "projecter");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).contains("group 'projecter' has no checkpoint").contains("groups with checkpoints: projector");
    }

    @Test
    void set_without_yes_shows_the_change_and_changes_nothing() {
        commit("projector", P0, Checkpoint.of(1, 2));

        CliFeed.Run r = feed.feed("checkpoints", "set", "--group", "projector", "--partition", "0", "--to", "0/1",
                "--reason", "replay after fixing the projection");

        assertThat(r.exit()).as(r.err()).isEqualTo(0);
        assertThat(r.out()).contains("from:   1/2 (1000002)").contains("to:     0/1 (1)")
                .contains("effect: 4 epoch events back: the group reads them again")
                .contains("nothing changed: to apply exactly this, run again with --yes --expect 1/2");
        assertThat(checkpoints.read("projector", P0).orElseThrow().checkpoint()).isEqualTo(Checkpoint.of(1, 2));
        assertThat(checkpoints.read("projector", P0).orElseThrow().committedBy()).isEqualTo("test");
        assertThat(checkpoints.overrides("projector", P0)).isEmpty();
    }

    @Test
    void set_with_yes_moves_the_checkpoint_and_records_when_from_to_and_why() {
        commit("projector", P0, Checkpoint.of(1, 2));

        CliFeed.Run r = feed.feed("checkpoints", "set", "--group", "projector", "--partition", "0", "--to", "1",
                "--reason", "replay after fixing the projection", "--by", "alice", "--yes");

        assertThat(r.exit()).as(r.err()).isEqualTo(0);
        assertThat(r.out()).contains("by:     alice").contains("done: the checkpoint is 0/1 (1)");
        assertThat(checkpoints.read("projector", P0).orElseThrow().checkpoint()).isEqualTo(Checkpoint.of(0, 1));
        List<CheckpointOverride> history = checkpoints.overrides("projector", P0);
        assertThat(history).hasSize(1);
        assertThat(history.get(0).from()).isEqualTo(Checkpoint.of(1, 2));
        assertThat(history.get(0).to()).isEqualTo(Checkpoint.of(0, 1));
        assertThat(history.get(0).reason()).isEqualTo("replay after fixing the projection");
        assertThat(history.get(0).by()).isEqualTo("alice");
        assertThat(checkpoints.read("projector", P0).orElseThrow().committedBy()).isEqualTo("alice");

        CliFeed.Run h = feed.feed("checkpoints", "history", "--group", "projector");
        assertThat(h.exit()).isEqualTo(0);
        assertThat(h.out().lines().toList().get(1)).matches("\\S+Z\\s+0\\s+1/2\\s+0/1\\s+alice\\s+replay after fixing the projection");
    }

    @Test
    void set_to_tail_and_to_start_resolve_in_the_partition() {
        commit("projector", P1, Checkpoint.of(0, 0));
        assertThat(feed.feed("checkpoints", "set", "--group", "projector", "--partition", "0", "--to", "tail",
                "--reason", "skip the backlog", "--yes").exit()).isEqualTo(0);
        assertThat(checkpoints.read("projector", P0).orElseThrow().checkpoint()).isEqualTo(Checkpoint.of(1, 2));
        assertThat(feed.feed("checkpoints", "set", "--group", "projector", "--partition", "0", "--to", "start",
                "--reason", "rebuild", "--yes").exit()).isEqualTo(0);
        assertThat(checkpoints.read("projector", P0).orElseThrow().checkpoint()).isEqualTo(Checkpoint.START);
    }

    @Test
    void set_to_a_time_after_everything_lands_on_the_tail() {
        CliFeed.Run r = feed.feed("checkpoints", "set", "--group", "projector", "--partition", "0",
                "--to", "time:2999-01-01T00:00:00Z", "--reason", "only new events", "--create-group", "--yes");
        assertThat(r.exit()).as(r.err()).isEqualTo(0);
        assertThat(r.out()).contains("first event indexed at or after 2999-01-01T00:00:00Z");
        assertThat(checkpoints.read("projector", P0).orElseThrow().checkpoint()).isEqualTo(Checkpoint.of(1, 2));
    }

    @Test
    void set_refuses_positions_the_group_could_never_read_from() {
        CliFeed.Run beyond = feed.feed("checkpoints", "set", "--group", "g", "--partition", "0", "--to", "1/3", "--reason", "x",
                "--create-group", "--yes");
        assertThat(beyond.exit()).isEqualTo(2);
        assertThat(beyond.err()).contains("beyond the tail of partition 0 (1/2 (1000002))").contains("--to tail");
        CliFeed.Run pastClosed = feed.feed("checkpoints", "set", "--group", "g", "--partition", "0", "--to", "0/4", "--reason", "x",
                "--create-group", "--yes");
        assertThat(pastClosed.exit()).isEqualTo(2);
        assertThat(pastClosed.err()).contains("past the end of epoch 0 of partition 0").contains("use at most 0/3 (same as 1/0)");
        assertThat(checkpoints.read("g", P0)).isEmpty();
    }

    @Test
    void set_with_bad_arguments_exits_2_and_says_what_to_type() {
        CliFeed.Run noReason = feed.feed("checkpoints", "set", "--group", "g", "--partition", "0", "--to", "0/1");
        assertThat(noReason.exit()).isEqualTo(2);
        assertThat(noReason.err()).contains("Missing required option: '--reason=TEXT'").contains("Usage: feed checkpoints set");
        CliFeed.Run badTo = feed.feed("checkpoints", "set", "--group", "g", "--partition", "0", "--to", "yesterday", "--reason", "x");
        assertThat(badTo.exit()).isEqualTo(2);
        assertThat(badTo.err()).contains("--to 'yesterday' is not a position: give a raw checkpoint (1000042), EPOCH/OFFSET (1/42)");
        CliFeed.Run badTime = feed.feed("checkpoints", "set", "--group", "g", "--partition", "0", "--to", "time:09:00", "--reason", "x");
        assertThat(badTime.exit()).isEqualTo(2);
        assertThat(badTime.err()).contains("not an ISO-8601 UTC time: write it like 2026-11-23T09:00:00Z");
        CliFeed.Run badPartition = feed.feed("checkpoints", "set", "--group", "g", "--partition", "7", "--to", "0/1", "--reason", "x");
        assertThat(badPartition.exit()).isEqualTo(2);
        assertThat(badPartition.err()).contains("--partition 7 does not exist: the feed has 2 partitions (0..1)");
        CliFeed.Run blankReason = feed.feed("checkpoints", "set", "--group", "g", "--partition", "0", "--to", "0/1", "--reason", " ");
        assertThat(blankReason.exit()).isEqualTo(2);
        assertThat(blankReason.err()).contains("--reason is blank");
        assertThat(checkpoints.groups()).isEmpty();
    }

    @Test
    void no_groups_prints_so_and_exits_0() {
        CliFeed.Run r = feed.feed("checkpoints");
        assertThat(r.exit()).isEqualTo(0);
        assertThat(r.out()).contains("no consumer group has a checkpoint in index table '" + feed.indexTable + "'");
    }

    @Test
    void set_for_a_group_that_does_not_exist_needs_create_group_so_a_typo_makes_no_group() {
        commit("audit", P0, Checkpoint.of(0, 1));

        CliFeed.Run typo = feed.feed("checkpoints", "set", "--group", "adit", "--partition", "0", "--to", "start", "--reason", "x", "--yes");

        assertThat(typo.exit()).isEqualTo(2);
        assertThat(typo.err().lines().toList()).hasSize(1);
        assertThat(typo.err()).contains("group 'adit' has no checkpoint", "groups: audit", "pass --create-group");
        assertThat(checkpoints.groups()).containsExactly("audit");
        assertThat(checkpoints.read("adit", P0)).isEmpty();

        CliFeed.Run created = feed.feed("checkpoints", "set", "--group", "mailer", "--partition", "0", "--to", "start",
                "--reason", "a new group starts from the beginning", "--create-group", "--yes");
        assertThat(created.exit()).as(created.err()).isEqualTo(0);
        assertThat(checkpoints.groups()).containsExactly("audit", "mailer");
    }

    @Test
    void set_applies_only_if_the_checkpoint_is_still_the_one_the_preview_showed() {
        commit("projector", P0, Checkpoint.of(0, 1));
        CliFeed.Run preview = feed.feed("checkpoints", "set", "--group", "projector", "--partition", "0", "--to", "start", "--reason", "rebuild");
        assertThat(preview.out()).contains("--yes --expect 0/1");
        // meanwhile the group's reader commits further
        commit("projector", P0, Checkpoint.of(1, 1));

        CliFeed.Run stale = feed.feed("checkpoints", "set", "--group", "projector", "--partition", "0", "--to", "start", "--reason", "rebuild",
                "--yes", "--expect", "0/1");

        assertThat(stale.exit()).isEqualTo(1);
        assertThat(stale.err()).contains("nothing changed: the checkpoint was expected at 0/1 but is 1/1", "by test");
        assertThat(checkpoints.read("projector", P0).orElseThrow().checkpoint()).isEqualTo(Checkpoint.of(1, 1));
        assertThat(checkpoints.overrides("projector", P0)).isEmpty();

        CliFeed.Run fresh = feed.feed("checkpoints", "set", "--group", "projector", "--partition", "0", "--to", "start", "--reason", "rebuild",
                "--yes", "--expect", "1/1");
        assertThat(fresh.exit()).as(fresh.err()).isEqualTo(0);
        assertThat(checkpoints.read("projector", P0).orElseThrow().checkpoint()).isEqualTo(Checkpoint.START);
    }

    @Test
    void two_operators_cannot_overwrite_each_other_blindly() {
        commit("projector", P0, Checkpoint.of(1, 2));
        // both look at 1/2; alice moves it first
        assertThat(feed.feed("checkpoints", "set", "--group", "projector", "--partition", "0", "--to", "0/1", "--reason", "replay",
                "--by", "alice", "--yes", "--expect", "1/2").exit()).isEqualTo(0);

        CliFeed.Run bob = feed.feed("checkpoints", "set", "--group", "projector", "--partition", "0", "--to", "tail", "--reason", "skip",
                "--by", "bob", "--yes", "--expect", "1/2");

        assertThat(bob.exit()).isEqualTo(1);
        assertThat(bob.err()).contains("expected at 1/2 but is 0/1", "by alice");
        assertThat(checkpoints.overrides("projector", P0)).extracting(CheckpointOverride::by).containsExactly("alice");
        // the preview shows who set it last, so bob decides on what alice did
        CliFeed.Run look = feed.feed("checkpoints", "set", "--group", "projector", "--partition", "0", "--to", "tail", "--reason", "skip");
        assertThat(look.out()).containsPattern("last set \\S+Z by alice to 0/1: replay");
    }

    @Test
    void override_if_writes_only_when_the_stored_checkpoint_is_the_expected_one() {
        commit("projector", P0, Checkpoint.of(1, 2));
        assertThat(checkpoints.overrideIf("projector", P0, java.util.Optional.of(Checkpoint.of(0, 1)), Checkpoint.START, "rebuild", "carol"))
                .isInstanceOf(io.appendsfeed.reader.CheckpointStore.OverrideResult.Moved.class);
        assertThat(checkpoints.overrideIf("projector", P0, java.util.Optional.of(Checkpoint.of(1, 2)), Checkpoint.START, "rebuild", "carol"))
                .isInstanceOf(io.appendsfeed.reader.CheckpointStore.OverrideResult.Applied.class);
        assertThat(checkpoints.overrides("projector", P0)).extracting(CheckpointOverride::by).containsExactly("carol");
    }

    @Test
    void the_audit_record_names_the_os_user_when_no_by_is_given() {
        commit("projector", P0, Checkpoint.of(1, 2));
        assertThat(feed.feed("checkpoints", "set", "--group", "projector", "--partition", "0", "--to", "0/1", "--reason", "replay",
                "--yes").exit()).isEqualTo(0);
        assertThat(checkpoints.overrides("projector", P0)).extracting(CheckpointOverride::by)
                .containsExactly(System.getProperty("user.name"));
    }

    @Test
    void a_bad_expect_is_one_line_exit_2() {
        commit("projector", P0, Checkpoint.of(1, 2));
        CliFeed.Run r = feed.feed("checkpoints", "set", "--group", "projector", "--partition", "0", "--to", "0/1", "--reason", "x",
                "--yes", "--expect", "yesterday");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err().lines().toList()).hasSize(1);
        assertThat(r.err()).contains("--expect 'yesterday' is not a checkpoint");
        assertThat(checkpoints.overrides("projector", P0)).isEmpty();
    }

    private void commit(String group, PartitionId p, Checkpoint to) {
        assertThat(checkpoints.commit(group, p, to, "test", null)).isInstanceOf(CommitResult.Committed.class);
    }

}

package io.appendsfeed.indexer.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import io.appendsfeed.reader.DynamoCheckpointStore;
import io.appendsfeed.reader.DynamoParkedStreams;
import io.appendsfeed.reader.ParkedStreams.ParkedStream;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(LocalDynamoExtension.class)
class ParkedCommandTest {

    private CliFeed feed;
    private DynamoParkedStreams parked;

    @BeforeEach
    void setUp(LocalDynamo local) {
        feed = new CliFeed(local, 1);
        parked = new DynamoParkedStreams(local.dynamo(), feed.indexTable, Clock.systemUTC());
        DynamoCheckpointStore checkpoints = new DynamoCheckpointStore(local.dynamo(), feed.indexTable, Clock.systemUTC());
        checkpoints.commit("projector", PartitionId.ZERO, Checkpoint.of(0, 3), "test", null);
        checkpoints.commit("mailer", PartitionId.ZERO, Checkpoint.of(0, 1), "test", null);
        park("projector", "Account-1", 4, "NullPointerException: balance\\n at Projector.apply");
        park("projector", "Account-2", 0, "timeout");
        park("mailer", "Order-9", 2, "SMTP 550");
    }

    @Test
    void lists_parked_streams_of_every_group_with_reason_and_position_and_exits_1() {
        CliFeed.Run r = feed.feed("parked");

        assertThat(r.exit()).isEqualTo(1);
        List<String> lines = r.out().lines().toList();
        assertThat(lines.get(0)).matches("GROUP\\s+STREAM\\s+PARTITION\\s+FROM INDEX\\s+POSITION\\s+ATTEMPTS\\s+PARKED AT\\s+REASON");
        assertThat(lines.get(1)).matches("mailer\\s+Order-9\\s+0\\s+2\\s+0/2\\s+10\\s+\\S+Z\\s+SMTP 550");
        assertThat(lines.get(2)).matches("projector\\s+Account-1\\s+0\\s+4\\s+0/4\\s+10\\s+\\S+Z\\s+NullPointerException: balance.*");
        assertThat(lines.get(3)).matches("projector\\s+Account-2\\s+0\\s+0\\s+0/0\\s+10\\s+\\S+Z\\s+timeout");
        assertThat(lines).hasSize(4);
    }

    @Test
    void json_for_one_group() throws Exception {
        CliFeed.Run r = feed.feed("parked", "--group", "mailer", "--json");
        assertThat(r.exit()).isEqualTo(1);
        JsonNode a = new ObjectMapper().readTree(r.out());
        assertThat(a).hasSize(1);
        assertThat(a.get(0).get("stream").asText()).isEqualTo("Order-9");
        assertThat(a.get(0).get("fromIndex").asLong()).isEqualTo(2);
        assertThat(a.get(0).get("reason").asText()).isEqualTo("SMTP 550");
    }

    @Test
    void release_one_stream_then_the_rest_then_nothing_is_parked() {
        CliFeed.Run one = feed.feed("parked", "release", "--group", "projector", "--stream", "Account-1", "--by", "alice");
        assertThat(one.exit()).as(one.err()).isEqualTo(0);
        assertThat(one.out()).contains("released Account-1 in group projector");
        assertThat(parked.list("projector")).extracting(p -> p.stream().value()).containsExactly("Account-2");

        CliFeed.Run all = feed.feed("parked", "release", "--group", "projector", "--all");
        assertThat(all.exit()).isEqualTo(0);
        assertThat(all.out()).contains("released Account-2 in group projector", "released 1 stream in group projector");
        assertThat(parked.list("projector")).isEmpty();

        CliFeed.Run list = feed.feed("parked", "--group", "projector");
        assertThat(list.exit()).isEqualTo(0);
        assertThat(list.out()).contains("no stream is parked in group projector");
        assertThat(parked.list("mailer")).hasSize(1);
    }

    @Test
    void releasing_a_stream_that_is_not_parked_exits_1_and_names_those_that_are() {
        CliFeed.Run r = feed.feed("parked", "release", "--group", "projector", "--stream", "Account-3");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).contains("Account-3 is not parked in group projector; parked: Account-1, Account-2");
    }

    @Test
    void release_needs_a_stream_or_all_but_not_both() {
        CliFeed.Run neither = feed.feed("parked", "release", "--group", "projector");
        assertThat(neither.exit()).isEqualTo(2);
        assertThat(neither.err()).contains("Missing required argument").contains("--stream=STREAM").contains("--all");
        CliFeed.Run both = feed.feed("parked", "release", "--group", "projector", "--stream", "Account-1", "--all");
        assertThat(both.exit()).isEqualTo(2);
        assertThat(both.err()).contains("mutually exclusive");
        CliFeed.Run badName = feed.feed("parked", "release", "--group", "projector", "--stream", "Account");
        assertThat(badName.exit()).isEqualTo(2);
        assertThat(badName.err()).contains("--stream 'Account' is not a stream name: it has no '-'");
        assertThat(parked.list("projector")).hasSize(2);
    }

    private void park(String group, String stream, long fromIndex, String reason) {
        parked.park(new ParkedStream(group, StreamName.parse(stream), PartitionId.ZERO, fromIndex, Checkpoint.of(0, fromIndex),
                reason.replace("\\n", "\n"), 10, Instant.now()));
    }
}

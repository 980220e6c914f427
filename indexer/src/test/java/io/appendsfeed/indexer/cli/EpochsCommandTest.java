package io.appendsfeed.indexer.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.appendsfeed.model.feed.AppendsEpoch.EpochEvent;
import io.appendsfeed.model.feed.EpochId;
import io.appendsfeed.model.feed.FeedStreams;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.feed.Span;
import io.appendsfeed.model.store.EventData;
import io.appendsfeed.model.store.Expected;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(LocalDynamoExtension.class)
class EpochsCommandTest {

    private CliFeed feed;

    /** p0: epoch 0 closed (2 Ingested: 3 spans of 2 streams, 4 events, + Closed); epoch 1 active with 1 span. p1: empty. */
    @BeforeEach
    void setUp(LocalDynamo local) {
        feed = new CliFeed(local, 2);
        String a = feed.streamIn("Account", 0, 0);
        String b = feed.streamIn("Account", 0, 1);
        Span a0 = feed.write(a, "Opened", "Deposited");
        Span b0 = feed.write(b, "Opened");
        feed.epochEvent(0, new EpochEvent.Ingested(List.of(a0, b0), List.of()));
        feed.epochEvent(0, new EpochEvent.Ingested(List.of(), List.of(feed.write(a, "Withdrawn"))));
        feed.closeEpoch(0);
        feed.ingest(feed.write(b, "Closed"));
    }

    @Test
    void shows_each_epoch_with_its_figures_and_which_is_active() {
        CliFeed.Run r = feed.feed("epochs");

        assertThat(r.exit()).as(r.err()).isEqualTo(0);
        List<String> lines = r.out().lines().toList();
        assertThat(lines.get(0)).isEqualTo("index table '" + feed.indexTable + "': 2 partitions");
        assertThat(lines.get(1)).matches("PARTITION\\s+EPOCH\\s+ACTIVE\\s+CLOSED\\s+ENTRIES\\s+SPANS\\s+STREAMS\\s+EVENTS\\s+BYTES\\s+FIRST INDEXED\\s+LAST INDEXED");
        assertThat(lines.get(2)).matches("\\s*0\\s+0\\s+yes\\s+3\\s+3\\s+2\\s+4\\s+\\d+\\s+\\S+Z\\s+\\S+Z");
        assertThat(lines.get(3)).matches("\\s*0\\s+1\\s+\\*\\s+no\\s+1\\s+1\\s+1\\s+1\\s+\\d+\\s+\\S+Z\\s+\\S+Z");
        assertThat(lines.get(4)).matches("\\s*1\\s+0\\s+\\*\\s+no\\s+0\\s+0\\s+0\\s+0\\s+0\\s+-\\s+-");
        assertThat(lines).hasSize(5);
    }

    @Test
    void json_for_one_partition() throws Exception {
        CliFeed.Run r = feed.feed("epochs", "--partition", "0", "--json");

        assertThat(r.exit()).as(r.err()).isEqualTo(0);
        JsonNode epochs = new ObjectMapper().readTree(r.out());
        assertThat(epochs).hasSize(2);
        JsonNode e0 = epochs.get(0);
        assertThat(e0.get("epoch").asInt()).isEqualTo(0);
        assertThat(e0.get("closed").asBoolean()).isTrue();
        assertThat(e0.get("active").asBoolean()).isFalse();
        assertThat(e0.get("entries").asLong()).isEqualTo(3);
        assertThat(e0.get("spans").asLong()).isEqualTo(3);
        assertThat(e0.get("streams").asInt()).isEqualTo(2);
        assertThat(e0.get("events").asLong()).isEqualTo(4);
        assertThat(e0.get("bytes").asLong()).isGreaterThan(0);
        assertThat(epochs.get(1).get("active").asBoolean()).isTrue();
        assertThat(epochs.get(1).get("closed").asBoolean()).isFalse();
    }

    @Test
    void an_unknown_partition_exits_2() {
        CliFeed.Run r = feed.feed("epochs", "--partition", "2");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("--partition 2 does not exist: the feed has 2 partitions (0..1)");
    }

    @Test
    void an_epoch_event_of_an_unknown_type_is_reported_with_exit_1() {
        feed.index.append(FeedStreams.epoch(PartitionId.of(1), EpochId.ZERO), Expected.version(0),
                List.of(EventData.json("Rebalanced", "{}")));
        CliFeed.Run r = feed.feed("epochs");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).contains("partition 1: stopped at an epoch event this version cannot read").contains("Rebalanced");
        assertThat(r.out()).contains("index table");
    }
}

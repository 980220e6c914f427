package io.appendsfeed.indexer.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.appendsfeed.model.feed.EpochId;
import io.appendsfeed.model.feed.FeedStreams;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.store.EventData;
import io.appendsfeed.model.store.Expected;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(LocalDynamoExtension.class)
class TailCommandTest {

    private CliFeed feed;
    private String account;
    private String order;

    /** One partition: Account opened, Order placed, epoch closed, Account deposited (in epoch 1). */
    @BeforeEach
    void setUp(LocalDynamo local) {
        feed = new CliFeed(local, 1);
        account = "Account-1";
        order = "Order-7";
        feed.ingest(feed.write(account, "Opened"), feed.write(order, "Placed", "Paid"));
        feed.closeEpoch(0);
        feed.ingest(feed.write(account, "Deposited"));
    }

    @Test
    void from_start_until_caught_up_prints_every_span_in_feed_order_across_epochs() {
        CliFeed.Run r = feed.feed("tail", "--from", "start", "--until-caught-up");

        assertThat(r.exit()).as(r.err()).isEqualTo(0);
        List<String> lines = r.out().lines().toList();
        assertThat(lines).hasSize(3);
        assertThat(lines.get(0)).matches("0 0/0 \\S+Z Account-1@0 \\[Opened\\]");
        assertThat(lines.get(1)).matches("0 0/0 \\S+Z Order-7@0 \\[Placed, Paid\\]");
        assertThat(lines.get(2)).matches("0 1/0 \\S+Z Account-1@1 \\[Deposited\\]");
    }

    @Test
    void category_filter_and_json_lines() throws Exception {
        CliFeed.Run r = feed.feed("tail", "--from", "0/0", "--category", "Order", "--json", "--until-caught-up");

        assertThat(r.exit()).as(r.err()).isEqualTo(0);
        List<String> lines = r.out().lines().toList();
        assertThat(lines).hasSize(1);
        JsonNode span = new ObjectMapper().readTree(lines.get(0));
        assertThat(span.get("stream").asText()).isEqualTo(order);
        assertThat(span.get("index").asLong()).isEqualTo(0);
        assertThat(span.get("types").toString()).isEqualTo("[\"Placed\",\"Paid\"]");
        assertThat(span.get("checkpoint").asLong()).isEqualTo(0);
        assertThat(span.get("partition").asInt()).isEqualTo(0);
    }

    @Test
    void from_a_raw_checkpoint_skips_what_is_before_it() {
        CliFeed.Run r = feed.feed("tail", "--from", "1000000", "--until-caught-up");
        assertThat(r.exit()).as(r.err()).isEqualTo(0);
        assertThat(r.out().lines().toList()).singleElement().asString().endsWith("Account-1@1 [Deposited]");
    }

    @Test
    void by_default_starts_at_the_tail_so_nothing_indexed_before_is_printed() {
        CliFeed.Run r = feed.feed("tail", "--until-caught-up");
        assertThat(r.exit()).as(r.err()).isEqualTo(0);
        assertThat(r.out()).isEmpty();
    }

    @Test
    void keeps_polling_for_new_spans_until_max_is_reached() throws Exception {
        CompletableFuture<CliFeed.Run> tail = CompletableFuture.supplyAsync(() -> feed.feed("tail", "--from", "1/1", "--max", "2"));
        feed.ingest(feed.write(order, "Shipped"));
        feed.ingest(feed.write(account, "Withdrawn"));
        CliFeed.Run r = tail.get(20, TimeUnit.SECONDS);
        assertThat(r.exit()).as(r.err()).isEqualTo(0);
        assertThat(r.out().lines().toList()).hasSize(2);
        assertThat(r.out().lines().toList().get(0)).endsWith("Order-7@2 [Shipped]");
        assertThat(r.out().lines().toList().get(1)).endsWith("Account-1@2 [Withdrawn]");
    }

    @Test
    void an_epoch_event_it_cannot_read_stops_the_tail_with_exit_1_after_what_precedes_it() {
        feed.index.append(FeedStreams.epoch(PartitionId.ZERO, EpochId.of(1)), Expected.version(1),
                List.of(EventData.json("Rebalanced", "{}")));
        CliFeed.Run r = feed.feed("tail", "--from", "start", "--until-caught-up");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.out().lines().toList()).hasSize(3);
        assertThat(r.err()).contains("feed: partition 0 stops at 1/1 (1000001), an epoch event this version cannot read")
                .contains("Rebalanced");
    }

    @Test
    void bad_from_exits_2() {
        CliFeed.Run r = feed.feed("tail", "--from", "0/x");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("--from '0/x' is not a position");
    }

    @Test
    void from_past_the_tail_is_refused_showing_the_tail() {
        CliFeed.Run r = feed.feed("tail", "--from", "99/0");

        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err().lines().toList()).hasSize(1);
        assertThat(r.err()).contains("--from 99/0 (99000000) is beyond the tail of partition 0 (1/1 (1000001))", "--from tail");
        assertThat(r.out()).isEmpty();
    }
}

package io.appendsfeed.indexer.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.appendsfeed.model.feed.AppendsEpoch.EpochEvent;
import io.appendsfeed.model.feed.Span;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(LocalDynamoExtension.class)
class VerifyCommandTest {

    private LocalDynamo local;

    @BeforeEach
    void setUp(LocalDynamo local) {
        this.local = local;
    }

    @Test
    void passes_on_a_correct_index_over_partitions_epochs_and_calved_streams() {
        CliFeed feed = new CliFeed(local, 3, 100);
        int streams = 0;
        long events = 0;
        for (int round = 0; round < 4; round++) {
            for (int p = 0; p < 3; p++) {
                for (int n = 0; n < 3; n++) {
                    Span s = feed.write(feed.streamIn("Account", p, n), "Deposited", "Deposited", "Withdrawn");
                    feed.ingest(s);
                    events += s.count();
                    streams += round == 0 ? 1 : 0;
                }
                if (round == 1) {
                    feed.closeEpoch(p);
                }
            }
        }

        CliFeed.Run r = feed.feed("verify", "--segments", "3");

        assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(0);
        assertThat(r.out()).contains("OK: every stored event is indexed once, in order, in its stream's partition");
        assertThat(r.out()).containsPattern("store: (\\d+) items scanned, " + streams + " streams, " + events + " events in \\S+");
        assertThat(r.out()).containsPattern("index: 3 partitions, 6 epochs, 39 epoch events, 36 spans, " + events + " events");
        long scanned = Long.parseLong(r.out().replaceAll("(?s).*store: (\\d+) items scanned.*", "$1"));
        assertThat(scanned).as("calves are read too").isGreaterThan(streams);
        assertThat(r.err()).contains("scanning store table '" + feed.storeTable + "': " + scanned + " items in");
    }

    @Test
    void finds_a_planted_gap_and_names_stream_expected_and_found() {
        CliFeed feed = new CliFeed(local, 1);
        Span all = feed.write("Account-1", "Opened", "Deposited", "Deposited", "Withdrawn", "Closed");
        feed.ingest(new Span(all.stream(), 0, all.types().subList(0, 2)));
        feed.ingest(new Span(all.stream(), 3, all.types().subList(3, 5)));
        feed.ingest(feed.write("Account-2", "Opened"));

        CliFeed.Run r = feed.feed("verify");

        assertThat(r.exit()).isEqualTo(1);
        List<String> lines = r.out().lines().toList();
        assertThat(lines.get(0)).matches("PROBLEM\\s+STREAM\\s+PARTITION\\s+AT\\s+EXPECTED\\s+FOUND");
        assertThat(lines.get(1)).matches("GAP\\s+Account-1\\s+0\\s+0/1\\s+index 2\\s+index 3 \\(event 2 missing\\)");
        assertThat(r.out()).contains("1 problem: GAP 1");
        assertThat(r.out()).doesNotContain("Account-2");
    }

    @Test
    void finds_a_planted_duplicate() {
        CliFeed feed = new CliFeed(local, 1);
        Span s = feed.write("Account-1", "Opened", "Deposited");
        feed.ingest(s);
        feed.ingest(feed.write("Account-1", "Withdrawn"));
        feed.epochEvent(0, new EpochEvent.Ingested(List.of(), List.of(s)));

        CliFeed.Run r = feed.feed("verify");

        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.out().lines().toList().get(1))
                .matches("DUPLICATE\\s+Account-1\\s+0\\s+0/2\\s+each event once \\(next new one: index 3\\)\\s+events 0..1 again");
        assertThat(r.out()).contains("1 problem: DUPLICATE 1");
    }

    @Test
    void finds_spans_out_of_order_missing_streams_and_events_beyond_the_store() {
        CliFeed feed = new CliFeed(local, 1);
        Span s = feed.write("Order-1", "Placed", "Paid", "Shipped", "Delivered");
        feed.ingest(new Span(s.stream(), 2, s.types().subList(2, 4)));
        feed.ingest(new Span(s.stream(), 0, s.types().subList(0, 2)));
        feed.write("Order-2", "Placed");
        Span indexed = feed.write("Order-3", "Placed");
        feed.write("Order-3", "Cancelled");
        feed.ingest(indexed, Span.of("Order-4", 0, "Placed"));

        CliFeed.Run r = feed.feed("verify", "--json");

        assertThat(r.exit()).isEqualTo(1);
        JsonNode report = json(r.out());
        assertThat(report.get("ok").asBoolean()).isFalse();
        assertThat(report.get("problems")).extracting(p -> p.get("kind").asText() + " " + p.get("stream").asText()
                + " | " + p.get("expected").asText() + " | " + p.get("found").asText())
                .containsExactly(
                        "OUT_OF_ORDER Order-1 | events 0..1 before index 2 (listed at 0/0) | events 0..1 after it",
                        "MISSING_STREAM Order-2 | event 0 indexed | none",
                        "NOT_INDEXED Order-3 | events 0..1 indexed | up to index 0 (event 1 missing)",
                        "BEYOND_STORE Order-4 | no stream in the store | indexed up to index 0");
        assertThat(report.get("store").get("streams").asInt()).isEqualTo(3);
        assertThat(report.get("index").get("spans").asInt()).isEqualTo(4);
    }

    @Test
    void an_empty_feed_verifies() {
        CliFeed feed = new CliFeed(local, 1);
        CliFeed.Run r = feed.feed("verify");
        assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(0);
        assertThat(r.out()).contains("store: 0 items scanned, 0 streams, 0 events").contains("OK:");
    }

    @Test
    void bad_segments_exit_2() {
        CliFeed feed = new CliFeed(local, 1);
        CliFeed.Run r = feed.feed("verify", "--segments", "0");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("--segments 0: give 1 to 1000");
    }

    private static JsonNode json(String text) {
        try {
            return new ObjectMapper().readTree(text);
        } catch (Exception e) {
            throw new AssertionError("not JSON: " + text, e);
        }
    }
}

package io.appendsfeed.indexer.notifier;

import static org.assertj.core.api.Assertions.assertThat;

import io.appendsfeed.indexer.ChangeRecord;
import io.appendsfeed.model.feed.FeedNotification;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The notifier's reading of index table records, record by record (the Streams records of real writes: NotifierHandlerTest). */
class TipPositionsTest {

    private static final String TIP = "2147483647";
    private final AtomicInteger sequence = new AtomicInteger(100);

    @Test
    void an_epoch_tip_gives_its_partition_epoch_times_a_million_plus_n() {
        NotifierHandler.Outcome r = NotifierHandler.read(List.of(tip("$AppendsEpoch-2_7", 42, "Ingested", "Ingested")));
        assertThat(r.published()).containsExactly(FeedNotification.of(2, 7_000_042));
        assertThat(r.epochTips()).isEqualTo(1);
        assertThat(r.rejected()).isEmpty();
    }

    @Test
    void a_closed_epoch_gives_the_next_epochs_start() {
        NotifierHandler.Outcome r = NotifierHandler.read(List.of(tip("$AppendsEpoch-0_3", 12, "Ingested", "Closed")));
        assertThat(r.published()).containsExactly(FeedNotification.of(0, 4_000_000));
    }

    @Test
    void the_position_comes_from_n_even_when_the_tip_carries_no_events() {
        // a writer that moves new events to calves first and then updates the Tip's n
        NotifierHandler.Outcome r = NotifierHandler.read(List.of(tip("$AppendsEpoch-1_0", 9), tipWithout("$AppendsEpoch-1_1", 4, "c")));
        assertThat(r.published()).containsExactly(FeedNotification.of(1, 1_000_004));
        assertThat(r.epochTips()).isEqualTo(2);
    }

    @Test
    void an_epoch_of_a_million_events_reached_continues_in_the_next_epoch() {
        assertThat(NotifierHandler.read(List.of(tip("$AppendsEpoch-0_5", 1_000_000))).published())
                .containsExactly(FeedNotification.of(0, 6_000_000));
    }

    @Test
    void several_changes_of_a_partition_make_one_notification_with_the_highest_position_whatever_their_order() {
        List<ChangeRecord> records = new ArrayList<>(List.of(
                tip("$AppendsEpoch-0_0", 3, "Ingested"), tip("$AppendsEpoch-0_0", 5, "Ingested"),
                tip("$AppendsEpoch-0_0", 6, "Ingested", "Closed"), tip("$AppendsEpoch-0_1", 1, "Ingested"),
                tip("$AppendsEpoch-1_0", 2, "Ingested"), tip("$AppendsEpoch-1_0", 1, "Ingested")));
        for (int k = 0; k < 4; k++) {
            java.util.Collections.rotate(records, 1);
            NotifierHandler.Outcome r = NotifierHandler.read(records);
            assertThat(r.published()).containsExactly(FeedNotification.of(0, 1_000_001), FeedNotification.of(1, 2));
        }
    }

    @Test
    void writes_of_everything_but_an_epoch_tip_are_ignored() {
        List<ChangeRecord> records = List.of(
                record("INSERT", "$AppendsEpoch-0_0", "0", image(3, "Ingested")),                  // a calf of an epoch
                record("INSERT", "$AppendsIndex-0", TIP, image(1, "Started")),
                record("MODIFY", "$ReaderCheckpoint-projector_0", TIP, image(0)),               // a commit (unfold-only)
                record("MODIFY", "$ReaderParked-projector", TIP, image(1, "Parked")),
                record("MODIFY", "$ReaderGroups-0", TIP, image(1, "Registered")),
                record("MODIFY", "$AppendsPoller-orders-store", TIP, image(0)),
                record("INSERT", "$AppendsRejected-0", TIP, image(1, "Rejected")),
                record("INSERT", "Order-1", TIP, image(1, "Placed")),
                record("REMOVE", "$AppendsEpoch-0_0", TIP, null));
        NotifierHandler.Outcome r = NotifierHandler.read(records);
        assertThat(r.published()).isEmpty();
        assertThat(r.ignored()).isEqualTo(records.size());
        assertThat(r.epochTips()).isZero();
        assertThat(r.rejected()).isEmpty();
    }

    @Test
    void epoch_tips_that_cannot_be_read_are_rejected_naming_the_record_and_the_rest_still_counts() {
        List<ChangeRecord> records = List.of(
                record("MODIFY", "$AppendsEpoch-0_0", TIP, null),
                tipWithout("$AppendsEpoch-0_0", 3, "n"),
                record("MODIFY", "$AppendsEpoch-0_0", TIP, Map.of("n", AttributeValue.fromS("3"), "c", list())),
                record("MODIFY", "$AppendsEpoch-0_0", TIP, Map.of("n", AttributeValue.fromN("1000001"), "c", list())),
                record("MODIFY", "$AppendsEpoch-0_0", TIP, Map.of("n", AttributeValue.fromN("3"), "c", AttributeValue.fromS("Ingested"))),
                record("MODIFY", "$AppendsEpoch-0_x", TIP, image(1, "Ingested")),
                record("UPDATE", "$AppendsEpoch-0_0", TIP, image(1, "Ingested")),
                tip("$AppendsEpoch-1_0", 4, "Ingested"));
        NotifierHandler.Outcome r = NotifierHandler.read(records);
        assertThat(r.published()).containsExactly(FeedNotification.of(1, 4));
        assertThat(r.rejected()).hasSize(7);
        assertThat(r.rejected().get(0).reason()).contains("no new image", "NEW_IMAGE");
        assertThat(r.rejected().get(0).key()).isEqualTo("p=$AppendsEpoch-0_0, i=2147483647");
        assertThat(r.rejected().get(0).sequenceNumber()).isEqualTo(records.get(0).sequenceNumber());
        assertThat(r.rejected().get(1).reason()).contains("attribute n of the epoch Tip is missing");
        assertThat(r.rejected().get(2).reason()).contains("attribute n");
        assertThat(r.rejected().get(3).reason()).contains("from 0 to 1000000");
        assertThat(r.rejected().get(4).reason()).contains("not a list of event types");
        assertThat(r.rejected().get(5).reason()).contains("not an epoch stream name");
        assertThat(r.rejected().get(6).reason()).contains("event name 'UPDATE'");
    }

    private ChangeRecord tip(String stream, long n, String... types) {
        return record("MODIFY", stream, TIP, image(n, types));
    }

    private ChangeRecord tipWithout(String stream, long n, String attribute) {
        Map<String, AttributeValue> image = new HashMap<>(image(n));
        image.remove(attribute);
        return record("MODIFY", stream, TIP, image);
    }

    private ChangeRecord record(String eventName, String p, String i, Map<String, AttributeValue> image) {
        return new ChangeRecord(Integer.toString(sequence.incrementAndGet()), eventName, "NEW_IMAGE",
                Map.of("p", AttributeValue.fromS(p), "i", AttributeValue.fromN(i)), image, null);
    }

    private static Map<String, AttributeValue> image(long n, String... types) {
        return Map.of("n", AttributeValue.fromN(Long.toString(n)), "c", list(types), "a", AttributeValue.fromN(Integer.toString(types.length)));
    }

    private static AttributeValue list(String... types) {
        return AttributeValue.fromL(Arrays.stream(types).map(AttributeValue::fromS).toList());
    }
}

package io.appendsfeed.indexer;

import static org.assertj.core.api.Assertions.assertThat;

import io.appendsfeed.model.feed.Span;
import io.appendsfeed.model.store.StoreItems;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class IndexerParseTest {

    static AttributeValue s(String v) { return AttributeValue.fromS(v); }
    static AttributeValue n(long v) { return AttributeValue.fromN(Long.toString(v)); }
    static AttributeValue list(String... types) {
        return AttributeValue.fromL(java.util.Arrays.stream(types).map(AttributeValue::fromS).toList());
    }

    static Map<String, AttributeValue> keys(String p, long i) {
        return Map.of("p", s(p), "i", n(i));
    }

    static Map<String, AttributeValue> tip(String p, long n, long a, String... c) {
        Map<String, AttributeValue> m = new HashMap<>(keys(p, StoreItems.TIP_INDEX));
        m.put("n", n(n));
        m.put("a", n(a));
        m.put("c", list(c));
        return m;
    }

    static ChangeRecord record(String event, Map<String, AttributeValue> image) {
        Map<String, AttributeValue> k = Map.of("p", image.get("p"), "i", image.get("i"));
        return new ChangeRecord("100", event, "NEW_IMAGE", k, image, null);
    }

    @Test
    void tip_insert_gives_the_last_a_events_at_n_minus_a() {
        Indexer.Parsed p = Indexer.parse(record("MODIFY", tip("Account-1", 5, 2, "A", "B", "C", "D", "E")));
        SourceSpan s = ((Indexer.Parsed.Spanned) p).span();
        assertThat(s.span()).isEqualTo(Span.of("Account-1", 3, "D", "E"));
        assertThat(s.tip()).isEqualTo(Span.of("Account-1", 0, "A", "B", "C", "D", "E"));
        assertThat(s.position()).isEqualTo("100");
    }

    @Test
    void tip_after_calving_starts_at_n_minus_length_of_c() {
        SourceSpan s = ((Indexer.Parsed.Spanned) Indexer.parse(record("MODIFY", tip("Account-1", 12, 1, "K", "L")))).span();
        assertThat(s.span()).isEqualTo(Span.of("Account-1", 11, "L"));
        assertThat(s.tip()).isEqualTo(Span.of("Account-1", 10, "K", "L"));
    }

    @Test
    void remove_calves_unfold_only_writes_and_reserved_streams_are_skipped() {
        assertThat(Indexer.parse(new ChangeRecord("1", "REMOVE", "NEW_IMAGE", keys("Account-1", StoreItems.TIP_INDEX), null, null)))
                .isEqualTo(new Indexer.Parsed.Skipped(Indexer.Parsed.SkipReason.REMOVE));
        Map<String, AttributeValue> calf = new HashMap<>(tip("Account-1", 3, 0, "A", "B", "C"));
        calf.remove("a");
        calf.put("i", n(0));
        assertThat(Indexer.parse(record("INSERT", calf))).isEqualTo(new Indexer.Parsed.Skipped(Indexer.Parsed.SkipReason.CALF));
        assertThat(Indexer.parse(record("MODIFY", tip("Account-1", 3, 0, "A", "B", "C"))))
                .isEqualTo(new Indexer.Parsed.Skipped(Indexer.Parsed.SkipReason.NO_NEW_EVENTS));
        Map<String, AttributeValue> noA = new HashMap<>(tip("Account-1", 3, 0, "A", "B", "C"));
        noA.remove("a");
        assertThat(Indexer.parse(record("MODIFY", noA))).isEqualTo(new Indexer.Parsed.Skipped(Indexer.Parsed.SkipReason.NO_NEW_EVENTS));
        assertThat(Indexer.parse(record("INSERT", tip("$AppendsEpoch-0_0", 1, 1, "Ingested"))))
                .isEqualTo(new Indexer.Parsed.Skipped(Indexer.Parsed.SkipReason.RESERVED_STREAM));
    }

    @Test
    void keys_only_view_is_rejected_naming_the_record_and_the_fix() {
        ChangeRecord r = new ChangeRecord("777", "INSERT", "KEYS_ONLY", keys("Account-1", StoreItems.TIP_INDEX), null, null);
        String reason = rejection(r);
        assertThat(reason).contains("no new image").contains("KEYS_ONLY").contains("NEW_IMAGE");
        var rejected = ((Indexer.Parsed.Rejected) Indexer.parse(r)).rejected();
        assertThat(rejected.sequenceNumber()).isEqualTo("777");
        assertThat(rejected.key()).isEqualTo("p=Account-1, i=2147483647");
    }

    @Test
    void malformed_tips_are_rejected_saying_what_is_wrong() {
        Map<String, AttributeValue> noN = new HashMap<>(tip("Account-1", 3, 1, "A"));
        noN.remove("n");
        assertThat(rejection(record("MODIFY", noN))).contains("n is missing");
        Map<String, AttributeValue> noC = new HashMap<>(tip("Account-1", 3, 1, "A"));
        noC.remove("c");
        assertThat(rejection(record("MODIFY", noC))).contains("no attribute c");
        assertThat(rejection(record("MODIFY", tip("Account-1", 3, 3, "A", "B")))).contains("a is 3 but c holds only 2");
        Map<String, AttributeValue> textN = new HashMap<>(tip("Account-1", 3, 1, "A"));
        textN.put("n", s("3"));
        assertThat(rejection(record("MODIFY", textN))).contains("n is not a number (N)");
        Map<String, AttributeValue> cOfNumbers = new HashMap<>(tip("Account-1", 3, 1, "A"));
        cOfNumbers.put("c", AttributeValue.fromL(List.of(n(1))));
        assertThat(rejection(record("MODIFY", cOfNumbers))).contains("non-empty string (S) event type");
        assertThat(rejection(record("MODIFY", tip("Account1", 3, 1, "A")))).contains("not a stream name");
        assertThat(rejection(new ChangeRecord("5", "UPSERT", "NEW_IMAGE", keys("Account-1", 0), null, null))).contains("UPSERT");
    }

    @Test
    void written_at_is_dynamodbs_time_never_the_writers_clock() {
        Map<String, AttributeValue> img = new HashMap<>(tip("Account-1", 2, 1, "A", "B"));
        img.put("e", AttributeValue.fromL(List.of(
                AttributeValue.fromM(Map.of("t", s("2020-01-01T00:00:00.000Z"))),
                AttributeValue.fromM(Map.of("t", s("2024-05-01T10:00:00.1234567+00:00"))))));
        ChangeRecord r = new ChangeRecord("1", "MODIFY", "NEW_IMAGE", keys("Account-1", StoreItems.TIP_INDEX), img,
                Instant.parse("2024-05-01T10:00:01Z"));
        // the events' t are a writer's clock, which may be off by hours: only DynamoDB's record time bounds the look-back
        assertThat(((Indexer.Parsed.Spanned) Indexer.parse(r)).span().writtenAt()).isEqualTo(Instant.parse("2024-05-01T10:00:01Z"));
        ChangeRecord noTime = new ChangeRecord("2", "MODIFY", "NEW_IMAGE", keys("Account-1", StoreItems.TIP_INDEX), img, null);
        assertThat(((Indexer.Parsed.Spanned) Indexer.parse(noTime)).span().writtenAt()).as("unknown: the whole window").isNull();
    }

    private static String rejection(ChangeRecord r) {
        Indexer.Parsed p = Indexer.parse(r);
        assertThat(p).isInstanceOf(Indexer.Parsed.Rejected.class);
        return ((Indexer.Parsed.Rejected) p).rejected().reason();
    }
}

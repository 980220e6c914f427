package io.appendsfeed.model.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.appendsfeed.model.StreamName;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The model's one reading of raw store items, as a scan and as a Streams image see them. Pure. */
class StoreItemParseTest {

    private static final StreamName S = StreamName.parse("Account-1");

    static AttributeValue s(String v) { return AttributeValue.fromS(v); }
    static AttributeValue n(long v) { return AttributeValue.fromN(Long.toString(v)); }

    static Map<String, AttributeValue> item(String p, long i, long n, String... c) {
        Map<String, AttributeValue> m = new HashMap<>();
        m.put("p", s(p));
        m.put("i", n(i));
        m.put("n", n(n));
        m.put("c", AttributeValue.fromL(java.util.Arrays.stream(c).map(AttributeValue::fromS).toList()));
        return m;
    }

    @Test
    void a_scanned_tip_holds_its_events_from_n_minus_len_c() {
        StoreItem.Tip t = (StoreItem.Tip) StoreItems.parse(item("Account-1", StoreItems.TIP_INDEX, 12, "K", "L"));
        assertThat(t.stream()).isEqualTo(S);
        assertThat(t.first()).isEqualTo(10);
        assertThat(t.types()).containsExactly("K", "L");
        assertThat(t.appended()).as("a scan reads no a").isZero();
    }

    @Test
    void a_scanned_calf_must_end_where_n_says() {
        assertThat(StoreItems.parse(item("Account-1", 2, 5, "C", "D", "E"))).isEqualTo(new StoreItem.Calf(S, 2, List.of("C", "D", "E")));
        StoreItem.Malformed m = (StoreItem.Malformed) StoreItems.parse(item("Account-1", 2, 6, "C", "D", "E"));
        assertThat(m.stream()).as("the stream is named, so that it is left out whole").isEqualTo(S);
        assertThat(m.key()).isEqualTo("p=Account-1, i=2");
        assertThat(m.problem()).contains("n is 6", "3 event types", "calf starting at i = 2");
    }

    @Test
    void items_not_of_the_format_say_what_is_wrong() {
        Map<String, AttributeValue> noC = item("Foreign-1", StoreItems.TIP_INDEX, 3);
        noC.remove("c");
        assertThat(((StoreItem.Malformed) StoreItems.parse(noC)).problem()).contains("no attribute c");
        assertThat(((StoreItem.Malformed) StoreItems.parse(item("NoDash", 0, 1, "A"))))
                .satisfies(m -> assertThat(m.stream()).isNull()).extracting(StoreItem.Malformed::problem).asString()
                .contains("not a stream name");
        assertThat(((StoreItem.Malformed) StoreItems.parse(item("Account-1", StoreItems.TIP_INDEX, 1, "A", "B"))).problem())
                .contains("n must be at least");
        Map<String, AttributeValue> textI = item("Account-1", 0, 1, "A");
        textI.put("i", s("tip"));
        assertThat(((StoreItem.Malformed) StoreItems.parse(textI)).problem()).contains("the key i is not a number (N)");
        assertThat(StoreItems.parse(item("$AppendsEpoch-0_0", StoreItems.TIP_INDEX, 1, "Ingested")))
                .isEqualTo(new StoreItem.Reserved("$AppendsEpoch-0_0"));
    }

    @Test
    void an_image_is_read_only_as_far_as_indexing_needs() {
        Map<String, AttributeValue> calfKeys = Map.of("p", s("Account-1"), "i", n(0));
        assertThat(StoreItems.parseImage(calfKeys, null, null)).isEqualTo(new StoreItem.Calf(S, 0, null));
        Map<String, AttributeValue> tipKeys = Map.of("p", s("Account-1"), "i", n(StoreItems.TIP_INDEX));
        assertThat(StoreItems.parseImage(tipKeys, Map.of("a", n(0)), null)).as("n and c not read")
                .isEqualTo(new StoreItem.Unfolded(S));
        assertThat(StoreItems.parseImage(tipKeys, null, null))
                .isEqualTo(new StoreItem.Malformed("p=Account-1, i=2147483647", S, StoreItems.NO_IMAGE));
    }

    @Test
    void an_images_types_given_by_the_source_are_used_as_given() {
        Map<String, AttributeValue> keys = Map.of("p", s("Account-1"), "i", n(StoreItems.TIP_INDEX));
        List<String> types = new ArrayList<>(List.of("A", "B", "C"));
        StoreItem.Tip t = (StoreItem.Tip) StoreItems.parseImage(keys, Map.of("n", n(5), "a", n(2)), types);
        assertThat(t.types()).isSameAs(types);
        assertThat(t.first()).isEqualTo(2);
        assertThat(t.appended()).isEqualTo(2);
        assertThat(((StoreItem.Malformed) StoreItems.parseImage(keys, Map.of("n", n(5), "a", n(4)), types)).problem())
                .contains("a is 4 but c holds only 3");
    }

    @Test
    void without_given_types_an_image_reads_c() {
        Map<String, AttributeValue> keys = Map.of("p", s("Account-1"), "i", n(StoreItems.TIP_INDEX));
        Map<String, AttributeValue> image = new HashMap<>(item("Account-1", StoreItems.TIP_INDEX, 2, "A", "B"));
        image.put("a", n(1));
        StoreItem.Tip t = (StoreItem.Tip) StoreItems.parseImage(keys, image, null);
        assertThat(t.types()).containsExactly("A", "B");
        assertThat(t.appended()).isEqualTo(1);
    }
}

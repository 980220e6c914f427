package io.appendsfeed.indexer.lambda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.appendsfeed.indexer.ChangeRecord;
import io.appendsfeed.indexer.Indexer;
import io.appendsfeed.model.feed.Span;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link LambdaEvent} on the fixtures and on each kind of input Lambda never sends. */
class LambdaEventTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    static byte[] fixture(String name) {
        try (InputStream in = LambdaEventTest.class.getResourceAsStream("/lambda/" + name)) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static ObjectNode fixtureTree(String name) {
        try {
            return (ObjectNode) JSON.readTree(fixture(name));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static LambdaEvent read(ObjectNode event) {
        try {
            return LambdaEvent.read(JSON.writeValueAsBytes(event));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void aws_shaped_event_reads_into_records_the_parser_reads() throws IOException {
        LambdaEvent event = LambdaEvent.read(new ByteArrayInputStream(fixture("two-appends-and-noise.json")));
        List<ChangeRecord> records = event.records();
        assertThat(event.delivered()).isEqualTo(5);
        assertThat(records).extracting(ChangeRecord::sequenceNumber).containsExactly(
                "400000000000000499660", "400000000000000499661", "400000000000000499662", "400000000000000499663",
                "400000000000000499664");
        ChangeRecord first = records.get(0);
        assertThat(first.eventName()).isEqualTo("INSERT");
        assertThat(first.viewType()).isEqualTo("NEW_IMAGE");
        assertThat(first.approximateCreation()).isEqualTo(Instant.ofEpochSecond(1732350000));
        // the image keeps what the parser reads; the events, most of a Tip's bytes, are not read (their own
        // t is a writer's clock, which the indexer does not use), and the types come as strings
        assertThat(first.newImage()).containsKeys("n", "a").doesNotContainKeys("c", "e", "u");
        assertThat(first.eventTypes()).containsExactly("Opened", "Deposited");

        List<Indexer.Parsed> parsed = records.stream().map(Indexer::parse).toList();
        assertThat(((Indexer.Parsed.Spanned) parsed.get(0)).span().span()).isEqualTo(Span.of("Account-17", 0, "Opened", "Deposited"));
        assertThat(((Indexer.Parsed.Spanned) parsed.get(1)).span().span()).isEqualTo(Span.of("Account-17", 2, "Withdrawn"));
        assertThat(((Indexer.Parsed.Spanned) parsed.get(1)).span().writtenAt()).isEqualTo(Instant.ofEpochSecond(1732350001));
        assertThat(parsed.get(2)).isEqualTo(new Indexer.Parsed.Skipped(Indexer.Parsed.SkipReason.NO_NEW_EVENTS));
        assertThat(parsed.get(3)).isEqualTo(new Indexer.Parsed.Skipped(Indexer.Parsed.SkipReason.CALF));
        assertThat(parsed.get(4)).isEqualTo(new Indexer.Parsed.Skipped(Indexer.Parsed.SkipReason.REMOVE));
        assertThat(event.first().arn()).isEqualTo(event.last().arn()).contains("table/store/stream/");
    }

    @Test
    void a_new_events_type_that_is_not_a_string_rejects_the_record_naming_it() {
        ObjectNode event = fixtureTree("two-appends-and-noise.json");
        ((ArrayNode) event.at("/Records/0/dynamodb/NewImage/c/L")).set(1, JSON.createObjectNode().put("N", "7"));
        ChangeRecord r = read(event).records().get(0);
        assertThat(((Indexer.Parsed.Rejected) Indexer.parse(r)).rejected().reason())
                .contains("attribute c holds", "N=7", "non-empty string (S)", "event type 2 of 2", "400000000000000499660");
    }

    @Test
    void an_older_type_that_is_not_a_string_is_read_only_to_heal_and_then_named() {
        ObjectNode event = fixtureTree("two-appends-and-noise.json");
        // the second record's Tip holds Opened, Deposited, Withdrawn; its write appended Withdrawn only
        ((ArrayNode) event.at("/Records/1/dynamodb/NewImage/c/L")).set(0, JSON.createObjectNode().put("N", "7"));
        ChangeRecord r = read(event).records().get(1);

        var spanned = (Indexer.Parsed.Spanned) Indexer.parse(r);
        assertThat(spanned.span().span()).isEqualTo(Span.of("Account-17", 2, "Withdrawn"));
        assertThatThrownBy(() -> spanned.span().tip()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("attribute c holds").hasMessageContaining("event type 1 of 3")
                .hasMessageContaining("400000000000000499661");
    }

    @Test
    void keys_only_record_has_no_image_and_is_rejected() {
        ChangeRecord r = LambdaEvent.read(fixture("keys-only.json")).records().get(0);
        assertThat(r.newImage()).isNull();
        assertThat(Indexer.parse(r)).isInstanceOf(Indexer.Parsed.Rejected.class);
    }

    @Test
    void reading_stops_at_a_record_without_a_sequence_number_and_names_it() {
        LambdaEvent event = LambdaEvent.read(fixture("no-sequence-number.json"));
        assertThat(event.records()).extracting(ChangeRecord::sequenceNumber).containsExactly("400000000000000499660");
        assertThat(event.delivered()).isEqualTo(3);
        assertThat(event.unidentified()).isEqualTo(new LambdaEvent.Unidentified(1, 3, "c9f0f895fb98ab9159f51fd0297e236d",
                "dynamodb.SequenceNumber"));
        assertThat(event.unidentified().toString()).contains("c9f0f895fb98ab9159f51fd0297e236d", "2 of 3", "no dynamodb.SequenceNumber");
    }

    @Test
    void escaped_and_non_ascii_strings_are_decoded() throws IOException {
        ObjectNode event = JSON.createObjectNode();
        ObjectNode record = event.putArray("Records").addObject();
        record.put("eventID", "1").put("eventName", "INSERT");
        ObjectNode d = record.putObject("dynamodb");
        d.put("SequenceNumber", "100").put("StreamViewType", "NEW_IMAGE");
        d.putObject("Keys").putObject("p").put("S", "Dépôt-\"7\"");
        ((ObjectNode) d.get("Keys")).putObject("i").put("N", "2147483647");
        ObjectNode image = d.putObject("NewImage");
        image.putObject("a").put("N", "1");
        image.putObject("n").put("N", "1");
        image.putObject("c").putArray("L").addObject().put("S", "Payé\\\u00e9\u2603\n\uD83D\uDE80");
        image.putObject("e").putArray("L").addObject().putObject("M").putObject("t").put("S", "2024-11-23T08:00:00.000Z");
        // Jackson writes non-ASCII as UTF-8 and escapes the quote, the backslash and the line feed
        byte[] json = JSON.writeValueAsBytes(event);
        ChangeRecord r = LambdaEvent.read(json).records().get(0);
        assertThat(r.keys().get("p").s()).isEqualTo("Dépôt-\"7\"");
        assertThat(r.eventTypes()).containsExactly("Payé\\\u00e9\u2603\n\uD83D\uDE80");
        // the \\u escapes of another writer, a surrogate pair among them, and an escaped name
        byte[] escaped = new String(json, StandardCharsets.UTF_8).replace("Payé", "Pay\\u00e9").replace("\uD83D\uDE80", "\\ud83d\\ude80")
                .replace("\"Keys\"", "\"\\u004beys\"").getBytes(StandardCharsets.UTF_8);
        assertThat(LambdaEvent.read(escaped).records().get(0).eventTypes()).containsExactly("Payé\\\u00e9\u2603\n\uD83D\uDE80");
        assertThat(LambdaEvent.read(escaped).records().get(0).keys().get("p").s()).isEqualTo("Dépôt-\"7\"");
    }

    @Test
    void input_that_is_not_a_stream_event_is_refused_saying_where_and_what_to_do() {
        assertRefused("", "the input is empty");
        assertRefused("[]", "the event is not a JSON object");
        assertRefused("{\"Records\": {}}", "Records is not a JSON array");
        assertRefused("{\"Records\": [{\"eventID\": \"1\", \"dynamodb\": {\"SequenceNumber\": \"5\"}}, 7]}",
                "record 2: the record is not a JSON object");
        assertRefused("{\"Records\": [{\"eventID\": \"1\", \"dynamodb\": {\"SequenceNumber\": \"5\", \"Keys\": {\"p\": \"x\"}}}]}",
                "record 1 (eventID 1, sequence number 5): dynamodb.Keys.p is not an attribute value");
        assertRefused("{\"Records\": [{\"eventID\": \"1\", \"dynamodb\": {\"NewImage\": {\"e\": {\"L\": [{\"M\": {]}}}}}]}",
                "record 1 (eventID 1): Unexpected close marker ']': expected '}' (at byte 75)");
        assertRefused("{\"Records\": [{\"eventID\": \"1\", \"dynamodb\": {\"NewImage\": {\"u\": {\"L\": [\"unclosed]}}}}]}",
                "record 1 (eventID 1): Unexpected end-of-input");
        assertRefused("{\"Records\": [{\"eventID\": \"1\" \"eventName\": \"INSERT\"}]}", "record 1 (eventID 1): Unexpected character");
        assertRefused("{\"Records\": []} {}", "more follows the event's JSON object");
        assertRefused("{\"Records\": [{\"dynamodb\": {\"ApproximateCreationDateTime\": \"yesterday\"}}]}",
                "record 1: dynamodb.ApproximateCreationDateTime (epoch seconds) is not a number");
        assertRefused("{\"Records\": [{\"eventID\": 7}]}", "record 1: eventID is not a string");
    }

    @Test
    void a_second_records_array_refuses_the_event() {
        // a decoy after the real records: both used to be indexed, putting spans that are not in the store into the feed
        String real = new String(fixture("two-appends-and-noise.json"), StandardCharsets.UTF_8).strip();
        String decoy = real.substring(0, real.length() - 1) + ", \"Records\": [] }";
        assertRefused(decoy, "Duplicate field 'Records'");
        assertRefused("{\"Records\": null, \"Records\": []}", "Duplicate field 'Records'");
    }

    @Test
    void a_name_given_twice_in_a_record_refuses_the_event_naming_the_record() {
        ObjectNode event = fixtureTree("two-appends-and-noise.json");
        String json = event.toString().replaceFirst("\"a\":\\{\"N\":\"2\"}", "\"a\":{\"N\":\"2\"},\"a\":{\"N\":\"1\"}");
        assertThat(json).contains("\"a\":{\"N\":\"1\"}");
        assertRefused(json, "record 1 (eventID 7de3041dd709b024af6f29e4fa13d34c): Duplicate field 'a'");
        assertRefused(json.replaceFirst("\"S\":\"Account-17\"", "\"S\":\"Account-17\",\"S\":\"Account-18\""),
                "record 1 (eventID 7de3041dd709b024af6f29e4fa13d34c): dynamodb.Keys.p is an attribute value with more than one type");
        String base = event.toString();
        assertRefused(base.replaceFirst("\"dynamodb\":\\{", "\"dynamodb\":{\"SequenceNumber\":\"1\","),
                "record 1 (eventID 7de3041dd709b024af6f29e4fa13d34c, sequence number 1): Duplicate field 'SequenceNumber'");
        assertRefused(base.replaceFirst("\"eventID\":", "\"eventName\":\"REMOVE\",\"eventID\":"), "Duplicate field 'eventName'");
    }

    @Test
    void a_name_given_twice_in_what_is_stepped_over_is_stepped_over_with_it() {
        String json = fixtureTree("two-appends-and-noise.json").toString();
        String twice = json.replaceFirst("\"e\":\\{\"L\":\\[\\{\"M\":\\{", "\"e\":{\"L\":[{\"M\":{\"d\":{\"S\":\"x\"},\"d\":{\"S\":\"y\"},");
        assertThat(twice).isNotEqualTo(json);
        assertThat(LambdaEvent.read(twice.getBytes(StandardCharsets.UTF_8)).records())
                .isEqualTo(LambdaEvent.read(json.getBytes(StandardCharsets.UTF_8)).records());
    }

    @Test
    void bytes_that_are_not_utf8_refuse_the_event_naming_the_record() {
        byte[] json = fixture("two-appends-and-noise.json");
        String text = new String(json, StandardCharsets.UTF_8);
        String secondId = fixtureTree("two-appends-and-noise.json").at("/Records/1/eventID").asText();
        int at = text.indexOf("Account-17", text.indexOf(secondId)); // in the second record's keys, before its sequence number
        for (byte[] bad : List.of(new byte[] {(byte) 0xff}, new byte[] {(byte) 0x80}, new byte[] {(byte) 0xc3, 'x'},
                new byte[] {(byte) 0xe2, (byte) 0x82})) {
            byte[] corrupt = new byte[json.length + bad.length];
            System.arraycopy(json, 0, corrupt, 0, at);
            System.arraycopy(bad, 0, corrupt, at, bad.length);
            System.arraycopy(json, at, corrupt, at + bad.length, json.length - at);
            assertThatThrownBy(() -> LambdaEvent.read(corrupt)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("record 2 (eventID " + secondId + "): Invalid UTF-8");
        }
    }

    @Test
    void nesting_ten_thousand_deep_is_refused_without_overflowing_the_stack() {
        String deep = "{\"M\":{\"x\":".repeat(10_000) + "{\"S\":\"y\"}" + "}}".repeat(10_000);
        String json = "{\"Records\": [{\"eventID\": \"1\", \"dynamodb\": {\"SequenceNumber\": \"5\", \"Keys\": {\"p\": " + deep + "}}}]}";
        assertRefused(json, "record 1 (eventID 1, sequence number 5): Document nesting depth (" + (LambdaEvent.MAX_DEPTH + 1)
                + ") exceeds the maximum allowed (" + LambdaEvent.MAX_DEPTH);
        // in a part the reader steps over, too
        assertRefused(json.replace("\"Keys\"", "\"OldImage\""), "record 1 (eventID 1, sequence number 5): Document nesting depth");
        // DynamoDB's deepest: 32 levels of M under an attribute
        String deepest = "{\"M\":{\"x\":".repeat(32) + "{\"S\":\"y\"}" + "}}".repeat(32);
        assertThat(LambdaEvent.read(json.replace(deep, deepest).getBytes(StandardCharsets.UTF_8)).records()).hasSize(1);
    }

    @Test
    void attribute_values_lambda_never_writes_are_refused_naming_the_record() {
        String head = "{\"Records\": [{\"eventID\": \"1\", \"dynamodb\": {\"SequenceNumber\": \"5\", \"Keys\": {\"p\": ";
        assertRefused(head + "{\"S\": \"x\", \"N\": \"1\"}}}}]}", "record 1 (eventID 1, sequence number 5): dynamodb.Keys.p is an attribute value with more than one type");
        assertRefused(head + "{}}}}]}", "dynamodb.Keys.p is an attribute value without a type");
        assertRefused(head + "{\"Q\": \"x\"}}}}]}", "dynamodb.Keys.p has the type 'Q', which DynamoDB does not have");
        assertRefused(head + "{\"S\": 7}}}}]}", "dynamodb.Keys.p.S is not a string");
        assertRefused(head + "{\"B\": \"not base64!\"}}}}]}", "record 1 (eventID 1, sequence number 5): ");
        assertRefused(head + "{\"BOOL\": \"true\"}}}}]}", "dynamodb.Keys.p.BOOL is not true or false");
        assertRefused(head + "{\"S\": null}}}}]}", "dynamodb.Keys.p.S is not a string");
    }

    private static void assertRefused(String json, String problem) {
        assertThatThrownBy(() -> LambdaEvent.read(json.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("the Lambda event is not a DynamoDB stream event as Lambda writes it: ")
                .hasMessageContaining(problem)
                .hasMessageContaining("is the function mapped to the store table's DynamoDB stream? Nothing was written");
    }
}

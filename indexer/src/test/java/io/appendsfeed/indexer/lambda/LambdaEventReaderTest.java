package io.appendsfeed.indexer.lambda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.serialization.PojoSerializer;
import com.amazonaws.services.lambda.runtime.serialization.events.LambdaEventSerializers;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.appendsfeed.indexer.ChangeRecord;
import io.appendsfeed.indexer.Indexer;
import io.appendsfeed.indexer.SourceSpan;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/**
 * {@link LambdaEventReader} (the event's JSON read by the handler) against what the Lambda runtime's
 * own serializer and {@link LambdaRecords} make of the same JSON: the same records, and the indexer
 * takes, skips or refuses each of them the same way. Events are generated with every shape a record
 * can take, right and wrong.
 */
class LambdaEventReaderTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final PojoSerializer<DynamodbEvent> RUNTIME = LambdaEventSerializers.serializerFor(DynamodbEvent.class,
            LambdaEventReaderTest.class.getClassLoader());

    @Property(tries = 400)
    void reads_what_the_runtime_and_lambda_records_read(@ForAll long seed) throws IOException {
        ObjectNode event = event(new Random(seed));
        byte[] json = (seed % 2 == 0 ? JSON.writerWithDefaultPrettyPrinter() : JSON.writer()).writeValueAsBytes(event);
        assertSameAsRuntime(json);
    }

    @Test
    void the_fixtures_read_as_the_runtime_reads_them() throws IOException {
        for (String fixture : List.of("two-appends-and-noise.json", "poison-in-the-middle.json", "no-sequence-number.json", "keys-only.json")) {
            try (InputStream in = getClass().getResourceAsStream("/lambda/" + fixture)) {
                assertSameAsRuntime(in.readAllBytes());
            }
        }
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
        image.putObject("c").putArray("L").addObject().put("S", "Payé\\\u00e9\u2603\n");
        image.putObject("e").putArray("L").addObject().putObject("M").putObject("t").put("S", "2024-11-23T08:00:00.000Z");
        // Jackson writes non-ASCII as UTF-8 and escapes the quote, the backslash and the line feed
        byte[] json = JSON.writeValueAsBytes(event);
        ChangeRecord r = LambdaEventReader.read(json).converted().records().get(0);
        assertThat(r.keys().get("p").s()).isEqualTo("Dépôt-\"7\"");
        assertThat(r.eventTypes()).containsExactly("Payé\\\u00e9\u2603\n");
        // the \\u escapes of another writer
        byte[] escaped = new String(json, StandardCharsets.UTF_8).replace("Payé", "Pay\\u00e9").getBytes(StandardCharsets.UTF_8);
        assertThat(LambdaEventReader.read(escaped).converted().records().get(0).eventTypes()).containsExactly("Payé\\\u00e9\u2603\n");
        assertSameAsRuntime(json);
    }

    @Test
    void the_runtimes_event_array_is_read_in_place_and_any_other_input_is_copied() throws IOException {
        byte[] event = "{\"Records\":[]}".getBytes(StandardCharsets.UTF_8);
        // the runtime's ByteArrayInputStream hands its whole array over: not copied
        assertThat(LambdaEventReader.bytes(new ByteArrayInputStream(event))).isSameAs(event);
        // part of an array, a stream already partly read, another kind of stream, chunks: copied, whole
        byte[] padded = ("xx" + new String(event, StandardCharsets.UTF_8) + "yy").getBytes(StandardCharsets.UTF_8);
        assertThat(LambdaEventReader.bytes(new ByteArrayInputStream(padded, 2, event.length))).isEqualTo(event).isNotSameAs(padded);
        ByteArrayInputStream partlyRead = new ByteArrayInputStream(padded);
        assertThat(partlyRead.skip(2)).isEqualTo(2);
        assertThat(LambdaEventReader.bytes(partlyRead)).isEqualTo(("{\"Records\":[]}yy").getBytes(StandardCharsets.UTF_8));
        assertThat(LambdaEventReader.bytes(new java.io.BufferedInputStream(new ByteArrayInputStream(event)))).isEqualTo(event);
        ByteArrayInputStream chunked = new ByteArrayInputStream(event) {
            @Override
            public synchronized long transferTo(java.io.OutputStream out) throws IOException {
                out.write(event, 0, event.length); // the whole array first, then more: the first write must not be kept alone
                out.write('!');
                out.write(event, 0, 3);
                return event.length + 4;
            }
        };
        assertThat(new String(LambdaEventReader.bytes(chunked), StandardCharsets.UTF_8)).isEqualTo("{\"Records\":[]}!{\"R");
        assertThat(LambdaEventReader.read(new ByteArrayInputStream(event)).delivered()).isZero();
    }

    @Test
    void input_that_is_not_a_stream_event_is_refused_saying_where_and_what_to_do() {
        assertRefused("", "the JSON ends early");
        assertRefused("[]", "the event is not a JSON object");
        assertRefused("{\"Records\": {}}", "Records is not a JSON array");
        assertRefused("{\"Records\": [{\"eventID\": \"1\", \"dynamodb\": {\"SequenceNumber\": \"5\"}}, 7]}",
                "record 2: the record is not a JSON object");
        assertRefused("{\"Records\": [{\"eventID\": \"1\", \"dynamodb\": {\"SequenceNumber\": \"5\", \"Keys\": {\"p\": \"x\"}}}]}",
                "record 1: dynamodb.Keys is not a JSON object");
        assertRefused("{\"Records\": [{\"eventID\": \"1\", \"dynamodb\": {\"NewImage\": {\"e\": {\"L\": [{\"M\": {]}}}}}]}",
                "']' closes nothing opened");
        assertRefused("{\"Records\": [{\"eventID\": \"1\", \"dynamodb\": {\"NewImage\": {\"e\": {\"L\": [\"unclosed]}}}}]}",
                "a string does not end");
        assertRefused("{\"Records\": [{\"eventID\": \"1\" \"eventName\": \"INSERT\"}]}", "expected ',' or '}'");
        assertRefused("{\"Records\": []} {}", "more follows the event's JSON object");
        assertRefused("{\"Records\": [{\"dynamodb\": {\"ApproximateCreationDateTime\": \"yesterday\"}}]}",
                "record 1: dynamodb.ApproximateCreationDateTime (epoch seconds) is not a number");
    }

    private static void assertRefused(String json, String problem) {
        assertThatThrownBy(() -> LambdaEventReader.read(json.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("the Lambda event is not a DynamoDB stream event: ")
                .hasMessageContaining(problem)
                .hasMessageContaining("is the function mapped to the store table's DynamoDB stream? Nothing was written");
    }

    /** The same records, delivered count, first and last source, and the indexer's reading of each. */
    private static void assertSameAsRuntime(byte[] json) throws IOException {
        DynamodbEvent decoded = RUNTIME.fromJson(new ByteArrayInputStream(json));
        LambdaRecords.Converted expected = LambdaRecords.convert(decoded);
        String text = new String(json, StandardCharsets.UTF_8);
        LambdaEventReader.Event actual;
        try {
            actual = LambdaEventReader.read(json);
        } catch (IllegalArgumentException e) {
            throw new AssertionError("the runtime read the event, the reader refused it: " + e.getMessage() + "\n" + text, e);
        }
        assertThat(actual.delivered()).as(text).isEqualTo(decoded.getRecords() == null ? 0 : decoded.getRecords().size());
        assertThat(actual.converted().unidentified()).as(text).isEqualTo(expected.unidentified());
        assertThat(actual.converted().records()).as(text).hasSameSizeAs(expected.records());
        for (int k = 0; k < expected.records().size(); k++) {
            ChangeRecord e = expected.records().get(k);
            ChangeRecord a = actual.converted().records().get(k);
            assertThat(a.sequenceNumber()).as(text).isEqualTo(e.sequenceNumber());
            assertThat(a.eventName()).as(text).isEqualTo(e.eventName());
            assertThat(a.viewType()).as(text).isEqualTo(e.viewType());
            assertThat(a.keys()).as(text).isEqualTo(e.keys());
            assertThat(a.approximateCreation()).as(text).isEqualTo(e.approximateCreation());
            assertThat(describe(a)).as("record %d of %s", k, text).isEqualTo(describe(e));
        }
        if (decoded.getRecords() != null && !decoded.getRecords().isEmpty()) {
            var withArn = decoded.getRecords().stream().filter(r -> r.getEventSourceARN() != null).findFirst();
            assertThat(actual.first() == null ? null : actual.first().arn()).isEqualTo(withArn.map(r -> r.getEventSourceARN()).orElse(null));
            var last = decoded.getRecords().get(decoded.getRecords().size() - 1);
            assertThat(actual.last() == null ? null : actual.last().arn()).isEqualTo(last.getEventSourceARN());
        }
    }

    /** What the indexer makes of the record: the span, its tip, times and sources, or why it is skipped or refused. */
    private static String describe(ChangeRecord r) {
        // the refusal of an event type shows the element as each side renders attribute values: the rest must agree
        return describeParsed(r).replaceAll("attribute c holds .*? where", "attribute c holds (an element) where");
    }

    private static String describeParsed(ChangeRecord r) {
        Indexer.Parsed parsed = Indexer.parse(r);
        if (parsed instanceof Indexer.Parsed.Spanned s) {
            SourceSpan span = s.span();
            StringBuilder out = new StringBuilder("spanned " + span.span() + " at " + span.writtenAt() + " from " + span.position());
            try {
                out.append(" tip ").append(span.tip());
            } catch (IllegalArgumentException e) {
                out.append(" tip refused: ").append(e.getMessage());
            }
            return out.toString();
        }
        return parsed.toString();
    }

    // ---- generated events

    private static ObjectNode event(Random rnd) {
        ObjectNode event = NODES.objectNode();
        if (rnd.nextInt(10) == 0) {
            event.put("other", "x");
        }
        if (rnd.nextInt(20) == 0) {
            event.putNull("Records");
            return event;
        }
        ArrayNode records = event.putArray("Records");
        int n = rnd.nextInt(6);
        for (int k = 0; k < n; k++) {
            records.add(record(rnd, k));
        }
        return event;
    }

    private static ObjectNode record(Random rnd, int k) {
        List<Runnable> members = new ArrayList<>();
        ObjectNode r = NODES.objectNode();
        if (rnd.nextInt(12) != 0) {
            members.add(() -> r.put("eventID", "id-" + k));
        }
        members.add(() -> r.put("eventName", pick(rnd, "INSERT", "INSERT", "MODIFY", "MODIFY", "REMOVE", "UPSERT")));
        members.add(() -> r.put("eventVersion", "1.1"));
        members.add(() -> r.put("eventSource", "aws:dynamodb"));
        if (rnd.nextInt(6) != 0) {
            members.add(() -> r.put("eventSourceARN", rnd.nextInt(8) == 0 ? "arn:aws:dynamodb:eu-west-1:1:table/other/stream/x"
                    : "arn:aws:dynamodb:eu-west-1:1:table/store/stream/2024"));
        }
        int dynamodb = rnd.nextInt(16);
        if (dynamodb == 0) {
            members.add(() -> r.putNull("dynamodb"));
        } else if (dynamodb != 1) {
            members.add(() -> r.set("dynamodb", dynamodb(rnd, k)));
        }
        shuffleAndRun(rnd, members);
        return r;
    }

    private static ObjectNode dynamodb(Random rnd, int k) {
        List<Runnable> members = new ArrayList<>();
        ObjectNode d = NODES.objectNode();
        int seq = rnd.nextInt(14);
        if (seq == 0) {
            members.add(() -> d.put("SequenceNumber", " "));
        } else if (seq != 1) {
            members.add(() -> d.put("SequenceNumber", Integer.toString(1000 + k)));
        }
        switch (rnd.nextInt(4)) {
            case 0 -> members.add(() -> d.put("ApproximateCreationDateTime", 1732350000L + k));
            case 1 -> members.add(() -> d.put("ApproximateCreationDateTime", 1732350000.125 + k));
            case 2 -> members.add(() -> d.putNull("ApproximateCreationDateTime"));
            default -> { }
        }
        members.add(() -> d.put("SizeBytes", 300 + k));
        members.add(() -> d.put("StreamViewType", pick(rnd, "NEW_IMAGE", "NEW_AND_OLD_IMAGES", "KEYS_ONLY")));
        String stream = pick(rnd, "Account-1", "Account-1", "Cart-2", "$AppendsIndex-0", "nodash", "Caf\u00e9-\"3\"");
        boolean tip = rnd.nextInt(5) != 0;
        if (rnd.nextInt(15) != 0) {
            members.add(() -> {
                ObjectNode keys = d.putObject("Keys");
                keys.set("p", rnd.nextInt(20) == 0 ? attr("N", "7") : attr("S", stream));
                if (rnd.nextInt(20) != 0) {
                    keys.set("i", attr("N", tip ? "2147483647" : Integer.toString(rnd.nextInt(5))));
                }
            });
        }
        if (rnd.nextInt(8) != 0) {
            members.add(() -> d.set("NewImage", image(rnd, stream)));
        }
        if (rnd.nextInt(4) == 0) {
            members.add(() -> d.set("OldImage", image(rnd, stream)));
        }
        shuffleAndRun(rnd, members);
        return d;
    }

    private static ObjectNode image(Random rnd, String stream) {
        List<Runnable> members = new ArrayList<>();
        ObjectNode m = NODES.objectNode();
        int events = rnd.nextInt(6);
        int appended = rnd.nextInt(10) == 0 ? events + 1 : rnd.nextInt(events + 1);
        long next = 3 + events + (rnd.nextInt(10) == 0 ? -5 : 0);
        members.add(() -> m.set("p", attr("S", stream)));
        members.add(() -> m.set("i", attr("N", "2147483647")));
        members.add(() -> m.set("etag", attr("S", "e-1")));
        members.add(() -> m.set("b", attr("N", "0")));
        int a = rnd.nextInt(12);
        if (a == 0) {
            members.add(() -> m.set("a", attr("S", "two")));
        } else if (a != 1) {
            members.add(() -> m.set("a", attr("N", Integer.toString(appended))));
        }
        if (rnd.nextInt(12) != 0) {
            members.add(() -> m.set("n", rnd.nextInt(15) == 0 ? attr("S", "x") : attr("N", Long.toString(next))));
        }
        int c = rnd.nextInt(14);
        if (c == 0) {
            members.add(() -> m.set("c", attr("S", "Opened")));
        } else if (c == 1) {
            members.add(() -> m.set("c", NODES.objectNode().putNull("L")));
        } else if (c != 2) {
            members.add(() -> {
                ArrayNode types = m.putObject("c").putArray("L");
                for (int k = 0; k < events; k++) {
                    int bad = rnd.nextInt(25);
                    types.add(bad == 0 ? attr("N", "7") : bad == 1 ? attr("S", "") : attr("S", pick(rnd, "Opened", "Paid", "Pay\u00e9\"d\"")));
                }
            });
        }
        int e = rnd.nextInt(12);
        if (e == 0) {
            members.add(() -> m.set("e", attr("S", "none")));
        } else if (e != 1) {
            members.add(() -> {
                ArrayNode list = m.putObject("e").putArray("L");
                for (int k = 0; k < events; k++) {
                    ObjectNode body = NODES.objectNode();
                    List<Runnable> fields = new ArrayList<>();
                    int t = rnd.nextInt(10);
                    if (t == 0) {
                        fields.add(() -> body.set("t", attr("N", "5")));
                    } else if (t != 1) {
                        String time = "2024-11-23T08:00:0" + k + ".000Z";
                        fields.add(() -> body.set("t", attr("S", time)));
                    }
                    fields.add(() -> body.set("d", attr("B", "eyJhIjoxfQ==")));
                    fields.add(() -> body.set("D", attr("N", "0")));
                    fields.add(() -> body.set("m", NODES.objectNode().set("M", NODES.objectNode().set("x",
                            NODES.objectNode().set("L", NODES.arrayNode().add(attr("S", "]}\\\"{[")))))));
                    shuffleAndRun(rnd, fields);
                    list.add(NODES.objectNode().set("M", body));
                }
            });
        }
        members.add(() -> m.set("u", NODES.objectNode().set("L", NODES.arrayNode().add(NODES.objectNode().set("M",
                NODES.objectNode().set("d", attr("B", "AAEC")))))));
        shuffleAndRun(rnd, members);
        return m;
    }

    private static ObjectNode attr(String type, String value) {
        return NODES.objectNode().put(type, value);
    }

    @SafeVarargs
    private static <T> T pick(Random rnd, T... options) {
        return options[rnd.nextInt(options.length)];
    }

    private static void shuffleAndRun(Random rnd, List<Runnable> members) {
        Collections.shuffle(members, rnd);
        members.forEach(Runnable::run);
    }
}

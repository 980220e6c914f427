package io.appendsfeed.indexer.lambda;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.appendsfeed.indexer.ChangeRecord;
import io.appendsfeed.indexer.Indexer;
import io.appendsfeed.indexer.SourceSpan;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/**
 * {@link LambdaEvent} against the Lambda Java runtime's own reading of the same JSON ({@link RuntimeEvent}):
 * generated events of every legal shape give the same records, which the indexer takes, skips or refuses
 * the same way; generated malformed variants (a second {@code Records}, a name given twice where read, bytes that are
 * not UTF-8, deep nesting, cut short, two types in one value) give a clear refusal naming the record, never
 * a wrong record and never an {@link Error}.
 */
class LambdaEventDifferentialTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectWriter ASCII = JsonMapper.builder().enable(JsonWriteFeature.ESCAPE_NON_ASCII).build().writer();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final String PREFIX = "the Lambda event is not a DynamoDB stream event as Lambda writes it: ";

    @Property(tries = 400)
    void legal_events_read_as_the_runtime_reads_them(@ForAll long seed) throws IOException {
        Random rnd = new Random(seed);
        assertSameAsRuntime(text(rnd, records(rnd)).getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void the_fixtures_read_as_the_runtime_reads_them() {
        for (String fixture : List.of("two-appends-and-noise.json", "poison-in-the-middle.json", "no-sequence-number.json", "keys-only.json")) {
            assertSameAsRuntime(LambdaEventTest.fixture(fixture));
        }
    }

    @Property(tries = 300)
    void malformed_events_are_refused_naming_the_record_and_never_read_wrongly(@ForAll long seed) throws IOException {
        Random rnd = new Random(seed);
        List<ObjectNode> records = records(rnd);
        if (records.isEmpty()) {
            records.add(record(rnd, 0));
        }
        List<String> texts = new ArrayList<>();
        for (ObjectNode r : records) {
            texts.add(JSON.writeValueAsString(r));
        }
        byte[] legal = event(texts.stream().map(t -> t.getBytes(StandardCharsets.UTF_8)).toList(), "");
        int k = rnd.nextInt(records.size());
        byte[] recordBytes = texts.get(k).getBytes(StandardCharsets.UTF_8);
        List<byte[]> mutated = new ArrayList<>(texts.stream().map(t -> t.getBytes(StandardCharsets.UTF_8)).toList());
        String name = "record " + (k + 1);
        switch (rnd.nextInt(6)) {
            case 0 -> // a decoy second Records array, before or after the real one
                    assertRefused(rnd.nextBoolean() ? event(mutated, ",\"Records\":[" + texts.get(0) + "]")
                            : concat("{\"Records\":[],".getBytes(StandardCharsets.UTF_8), slice(legal, 1, legal.length)),
                            null, "Duplicate field 'Records'");
            case 1 -> { // a name given twice, in the record, its dynamodb part, its image or one of its values
                String text = texts.get(k);
                List<Integer> objects = new ArrayList<>();
                for (int at = text.indexOf('{'); at >= 0; at = text.indexOf('{', at + 1)) {
                    if (text.charAt(at + 1) == '"') {
                        objects.add(at);
                    }
                }
                int at = objects.get(rnd.nextInt(objects.size())) + 1;
                mutated.set(k, (text.substring(0, at) + "\"x\":{\"S\":\"1\"},\"x\":{\"S\":\"2\"}," + text.substring(at))
                        .getBytes(StandardCharsets.UTF_8));
                // refused where read (an attribute value's first member is its type: 'x' is none of DynamoDB's),
                // stepped over with the rest elsewhere
                byte[] json = event(mutated, "");
                try {
                    assertSameRecords(LambdaEvent.read(legal), LambdaEvent.read(json), new String(json, StandardCharsets.UTF_8));
                } catch (IllegalArgumentException e) {
                    assertThat(e.getMessage()).startsWith(PREFIX + name).containsAnyOf("Duplicate field 'x'", "has the type 'x'");
                }
            }
            case 2 -> { // bytes that are not UTF-8 at the start of a string value
                List<Integer> strings = new ArrayList<>();
                for (int at = 0; at + 2 < recordBytes.length; at++) {
                    if (recordBytes[at] == '"' && recordBytes[at + 1] == ':' && recordBytes[at + 2] == '"') {
                        strings.add(at + 3);
                    }
                }
                byte[][] bad = {{(byte) 0xff}, {(byte) 0x80}, {(byte) 0xc3, 'x'}, {(byte) 0xe2, (byte) 0x82}, {(byte) 0xf0, (byte) 0x9f, 'x'}};
                int at = strings.get(rnd.nextInt(strings.size()));
                mutated.set(k, concat(slice(recordBytes, 0, at), bad[rnd.nextInt(bad.length)], slice(recordBytes, at, recordBytes.length)));
                assertRefused(event(mutated, ""), name, "Invalid UTF-8");
            }
            case 3 -> { // nested ten thousand deep, where the reader reads or where it steps over
                int depth = 10_000;
                String deep = rnd.nextBoolean() ? "[".repeat(depth) + "]".repeat(depth) : "{\"M\":{\"x\":".repeat(depth) + "{\"S\":\"y\"}" + "}}".repeat(depth);
                String text = texts.get(k);
                mutated.set(k, ("{\"deep\":" + deep + "," + text.substring(1)).getBytes(StandardCharsets.UTF_8));
                assertRefused(event(mutated, ""), name, "nesting depth");
            }
            case 4 -> { // cut short anywhere
                int cut = rnd.nextInt(legal.length - 1);
                assertRefused(slice(legal, 0, cut), null, "");
            }
            default -> { // two types in one attribute value: refused where read, stepped over elsewhere
                String text = texts.get(k);
                int at = text.indexOf("{\"S\":\"", rnd.nextInt(text.length()));
                at = at < 0 ? text.indexOf("{\"S\":\"") : at;
                if (at < 0) {
                    return;
                }
                mutated.set(k, (text.substring(0, at + 1) + "\"N\":\"1\"," + text.substring(at + 1)).getBytes(StandardCharsets.UTF_8));
                byte[] json = event(mutated, "");
                try {
                    LambdaEvent read = LambdaEvent.read(json);
                    assertSameRecords(LambdaEvent.read(legal), read, new String(json, StandardCharsets.UTF_8));
                } catch (IllegalArgumentException e) {
                    assertThat(e.getMessage()).startsWith(PREFIX + name).contains("more than one type");
                }
            }
        }
    }

    /** Refused, with the prefix, the record's name (when given) and one of the problems; nothing else thrown, nothing read. */
    private static void assertRefused(byte[] json, String record, String... problems) {
        String text = new String(json, StandardCharsets.UTF_8);
        Throwable thrown = null;
        try {
            LambdaEvent.read(json);
        } catch (Throwable t) { // an Error (StackOverflowError) must fail the test, with what it was
            thrown = t;
        }
        assertThat(thrown).as(text.length() > 2000 ? text.substring(0, 2000) : text).isInstanceOf(IllegalArgumentException.class);
        String message = thrown.getMessage();
        assertThat(message).startsWith(PREFIX + (record == null ? "" : record)).contains("Nothing was written");
        assertThat(java.util.Arrays.stream(problems).anyMatch(message::contains)).as("%s says one of %s", message, List.of(problems)).isTrue();
    }

    /** The same records, delivered count, first and last source, and the indexer's reading of each. */
    static void assertSameAsRuntime(byte[] json) {
        String text = new String(json, StandardCharsets.UTF_8);
        DynamodbEvent decoded = RuntimeEvent.decode(json);
        LambdaEvent actual;
        try {
            actual = LambdaEvent.read(json);
        } catch (IllegalArgumentException e) {
            throw new AssertionError("the runtime read the event, the reader refused it: " + e.getMessage() + "\n" + text, e);
        }
        assertSameRecords(RuntimeEvent.expected(decoded), actual, text);
    }

    private static void assertSameRecords(LambdaEvent expected, LambdaEvent actual, String text) {
        assertThat(actual.delivered()).as(text).isEqualTo(expected.delivered());
        assertThat(actual.unidentified()).as(text).isEqualTo(expected.unidentified());
        assertThat(actual.first()).as(text).isEqualTo(expected.first());
        assertThat(actual.last()).as(text).isEqualTo(expected.last());
        assertThat(actual.records()).as(text).hasSameSizeAs(expected.records());
        for (int k = 0; k < expected.records().size(); k++) {
            ChangeRecord e = expected.records().get(k);
            ChangeRecord a = actual.records().get(k);
            assertThat(a.sequenceNumber()).as(text).isEqualTo(e.sequenceNumber());
            assertThat(a.eventName()).as(text).isEqualTo(e.eventName());
            assertThat(a.viewType()).as(text).isEqualTo(e.viewType());
            assertThat(a.keys()).as(text).isEqualTo(e.keys());
            assertThat(a.newImage()).as(text).isEqualTo(e.newImage());
            assertThat(a.approximateCreation()).as(text).isEqualTo(e.approximateCreation());
            assertThat(describe(a)).as("record %d of %s", k, text).isEqualTo(describe(e));
        }
    }

    /** What the indexer makes of the record: the span, its tip and sources, or why it is skipped or refused. */
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

    // ---- generated events, as Lambda may write them

    private static byte[] event(List<byte[]> records, String after) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes("{\"Records\":[".getBytes(StandardCharsets.UTF_8));
        for (int k = 0; k < records.size(); k++) {
            if (k > 0) {
                out.write(',');
            }
            out.writeBytes(records.get(k));
        }
        out.writeBytes(("]" + after + "}").getBytes(StandardCharsets.UTF_8));
        return out.toByteArray();
    }

    private static List<ObjectNode> records(Random rnd) {
        List<ObjectNode> records = new ArrayList<>();
        for (int k = rnd.nextInt(6); k > 0; k--) {
            records.add(record(rnd, records.size()));
        }
        return records;
    }

    /** The event's text: compact or pretty, unknown fields around the records, non-ASCII as UTF-8 or escaped, some names escaped. */
    private static String text(Random rnd, List<ObjectNode> records) throws IOException {
        List<Runnable> members = new ArrayList<>();
        ObjectNode event = NODES.objectNode();
        if (rnd.nextInt(10) == 0) {
            members.add(() -> event.put("other", "x"));
        }
        if (rnd.nextInt(20) == 0) {
            members.add(() -> event.putNull("Records"));
        } else {
            members.add(() -> event.putArray("Records").addAll(records));
        }
        shuffleAndRun(rnd, members);
        ObjectWriter writer = rnd.nextBoolean() ? ASCII : JSON.writer();
        String text = (rnd.nextBoolean() ? writer.withDefaultPrettyPrinter() : writer).writeValueAsString(event);
        if (rnd.nextBoolean()) {
            text = text.replace("$", "\\u0024"); // `$` only ever stands in strings: the reserved streams' names
        }
        if (rnd.nextInt(4) == 0) {
            text = text.replace("\"Keys\"", "\"\\u004Beys\"").replace("\"eventName\"", "\"event\\u004eame\"");
        }
        return text;
    }

    private static ObjectNode record(Random rnd, int k) {
        List<Runnable> members = new ArrayList<>();
        ObjectNode r = NODES.objectNode();
        if (rnd.nextInt(12) != 0) {
            members.add(() -> r.put("eventID", "id-" + k + pick(rnd, "", "-\"q\"", "-\u00e9", "-\\")));
        }
        members.add(() -> r.put("eventName", pick(rnd, "INSERT", "INSERT", "MODIFY", "MODIFY", "REMOVE", "UPSERT")));
        members.add(() -> r.put("eventVersion", "1.1"));
        members.add(() -> r.put("eventSource", "aws:dynamodb"));
        members.add(() -> r.put("awsRegion", "eu-west-1"));
        if (rnd.nextInt(10) == 0) {
            members.add(() -> r.putObject("userIdentity").put("type", "Service").put("principalId", "dynamodb.amazonaws.com"));
        }
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
        switch (rnd.nextInt(6)) { // epoch seconds, in the forms a JSON writer may give them
            case 0 -> members.add(() -> d.put("ApproximateCreationDateTime", 1732350000L + k));
            case 1 -> members.add(() -> d.put("ApproximateCreationDateTime", 1732350000.125 + k));
            case 2 -> members.add(() -> d.put("ApproximateCreationDateTime", new BigDecimal("1.732350000125E9").add(BigDecimal.valueOf(k))));
            case 3 -> members.add(() -> d.put("ApproximateCreationDateTime", new BigDecimal("17323500001E-1")));
            case 4 -> members.add(() -> d.putNull("ApproximateCreationDateTime"));
            default -> { }
        }
        if (rnd.nextBoolean()) {
            members.add(() -> d.put("SizeBytes", rnd.nextBoolean() ? 300 + k : 3.0e2));
        }
        if (rnd.nextInt(8) != 0) {
            members.add(() -> d.put("StreamViewType", pick(rnd, "NEW_IMAGE", "NEW_AND_OLD_IMAGES", "KEYS_ONLY")));
        }
        String stream = pick(rnd, "Account-1", "Account-1", "Cart-2", "$AppendsIndex-0", "$AppendsEpoch-0_3", "nodash",
                "Caf\u00e9-\"3\"", "R\u00f6cket-\uD83D\uDE80", "Esc-\\\n\t\u0001/");
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
        if (rnd.nextInt(4) == 0) {
            members.add(() -> m.set("z" + rnd.nextInt(3), anyValue(rnd, 2)));
        }
        int a = rnd.nextInt(12);
        if (a == 0) {
            members.add(() -> m.set("a", anyValue(rnd, 1)));
        } else if (a != 1) {
            members.add(() -> m.set("a", attr("N", pick(rnd, Integer.toString(appended), Integer.toString(appended), "0" + appended))));
        }
        if (rnd.nextInt(12) != 0) {
            members.add(() -> m.set("n", rnd.nextInt(15) == 0 ? anyValue(rnd, 1) : attr("N", Long.toString(next))));
        }
        int c = rnd.nextInt(14);
        if (c == 0) {
            members.add(() -> m.set("c", anyValue(rnd, 1)));
        } else if (c != 1) {
            members.add(() -> {
                ArrayNode types = m.putObject("c").putArray("L");
                for (int k = 0; k < events; k++) {
                    int bad = rnd.nextInt(25);
                    types.add(bad == 0 ? anyValue(rnd, 1) : bad == 1 ? attr("S", "") : attr("S", pick(rnd, "Opened", "Paid", "Pay\u00e9\"d\"", "\uD83D\uDCB8")));
                }
            });
        }
        int e = rnd.nextInt(12);
        if (e == 0) {
            members.add(() -> m.set("e", anyValue(rnd, 1)));
        } else if (e != 1) {
            members.add(() -> {
                ArrayNode list = m.putObject("e").putArray("L");
                for (int k = 0; k < events; k++) {
                    if (rnd.nextInt(30) == 0) {
                        list.add(anyValue(rnd, 1)); // not an event's map
                        continue;
                    }
                    ObjectNode body = NODES.objectNode();
                    List<Runnable> fields = new ArrayList<>();
                    int t = rnd.nextInt(10);
                    if (t == 0) {
                        fields.add(() -> body.set("t", anyValue(rnd, 1)));
                    } else if (t != 1) {
                        String time = "2024-11-23T08:00:0" + k + ".000Z";
                        fields.add(() -> body.set("t", attr("S", time)));
                    }
                    fields.add(() -> body.set("d", attr("B", base64(rnd))));
                    fields.add(() -> body.set("D", attr("N", "0")));
                    fields.add(() -> body.set("m", NODES.objectNode().set("M", NODES.objectNode().set("x",
                            NODES.objectNode().set("L", NODES.arrayNode().add(attr("S", "]}\\\"{[")))))));
                    if (rnd.nextInt(4) == 0) {
                        fields.add(() -> body.set("y", anyValue(rnd, 3)));
                    }
                    shuffleAndRun(rnd, fields);
                    list.add(NODES.objectNode().set("M", body));
                }
            });
        }
        members.add(() -> m.set("u", NODES.objectNode().set("L", NODES.arrayNode().add(NODES.objectNode().set("M",
                NODES.objectNode().set("d", attr("B", base64(rnd))))))));
        shuffleAndRun(rnd, members);
        return m;
    }

    /** An attribute value of any of DynamoDB's types, nested up to {@code depth}. */
    private static ObjectNode anyValue(Random rnd, int depth) {
        List<Supplier<ObjectNode>> kinds = new ArrayList<>(List.of(
                () -> attr("S", pick(rnd, "", "x", "\u00e9\uD83D\uDE80", "two words", "\"q\"\\")),
                () -> attr("N", pick(rnd, "7", "-1.5", "1E+3", "0.000")),
                () -> attr("B", base64(rnd)),
                () -> NODES.objectNode().put("BOOL", rnd.nextBoolean()),
                () -> NODES.objectNode().put("NULL", true),
                () -> {
                    ObjectNode ss = NODES.objectNode();
                    ss.putArray("SS").add("a").add("b\u00e9");
                    return ss;
                },
                () -> {
                    ObjectNode ns = NODES.objectNode();
                    ns.putArray("NS").add("1").add("2.5");
                    return ns;
                },
                () -> {
                    ObjectNode bs = NODES.objectNode();
                    bs.putArray("BS").add(base64(rnd)).add(base64(rnd));
                    return bs;
                }));
        if (depth > 0) {
            kinds.add(() -> {
                ObjectNode map = NODES.objectNode();
                ObjectNode entries = map.putObject("M");
                for (int k = rnd.nextInt(3); k > 0; k--) {
                    entries.set(pick(rnd, "t", "x", "S", "$y"), anyValue(rnd, depth - 1));
                }
                return map;
            });
            kinds.add(() -> {
                ObjectNode list = NODES.objectNode();
                ArrayNode elements = list.putArray("L");
                for (int k = rnd.nextInt(3); k > 0; k--) {
                    elements.add(anyValue(rnd, depth - 1));
                }
                return list;
            });
        }
        return kinds.get(rnd.nextInt(kinds.size())).get();
    }

    private static String base64(Random rnd) {
        byte[] b = new byte[rnd.nextInt(12)];
        rnd.nextBytes(b);
        return Base64.getEncoder().encodeToString(b);
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

    private static byte[] slice(byte[] b, int from, int to) {
        return java.util.Arrays.copyOfRange(b, from, to);
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }
}

package io.appendsfeed.indexer.lambda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/**
 * How {@link JsonScanner} steps over what it is not asked for, against Jackson's tokenizer on the same
 * bytes: where a value ends, and where each element of an array starts. The documents are generated
 * dense in what the scanner's shortcuts look at: strings of backslashes, escaped quotes and base64
 * characters at every offset within an eight-byte word, one-character names (among them a quote and
 * a backslash), and DynamoDB attribute values (<code>{"S":"...</code>).
 */
class JsonScannerTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final String CHARS = "\"\\\\\\abcXYZ019+/=: ,{}[]é☃\n";
    private static final String BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=";

    @Property(tries = 300)
    void steps_over_a_value_and_finds_each_element_where_jackson_does(@ForAll long seed) throws IOException {
        Random rnd = new Random(seed);
        ArrayNode root = NODES.arrayNode();
        for (int k = rnd.nextInt(6); k > 0; k--) {
            root.add(value(rnd, 0));
        }
        byte[] json = (rnd.nextBoolean() ? JSON.writerWithDefaultPrettyPrinter() : JSON.writer()).writeValueAsBytes(root);
        String text = new String(json, StandardCharsets.UTF_8);

        int[] count = new int[1];
        JsonScanner elements = new JsonScanner(json);
        int[] starts = elements.elementStarts(new int[1], count);
        assertThat(Arrays.copyOf(starts, count[0])).as(text).containsExactly(jacksonElementStarts(json));
        assertThat(elements.offset()).as(text).isEqualTo(json.length);

        JsonScanner whole = new JsonScanner(json);
        whole.skipValue();
        assertThat(whole.offset()).as(text).isEqualTo(json.length);

        // every element stepped over on its own ends where the next one begins (or at the closing bracket)
        int[] ends = jacksonElementEnds(json);
        for (int k = 0; k < count[0]; k++) {
            JsonScanner one = new JsonScanner(json, starts[k]);
            one.skipValue();
            assertThat(one.offset()).as(text).isEqualTo(ends[k]);
        }

        // and no strict prefix of the document passes for a whole one
        int cut = rnd.nextInt(json.length);
        JsonScanner cutShort = new JsonScanner(Arrays.copyOf(json, cut));
        assertThatThrownBy(cutShort::skipValue).as(text + " cut at " + cut).isInstanceOf(JsonScanner.Malformed.class);
    }

    @Test
    void an_escaped_quote_after_a_run_of_backslashes_at_any_offset_does_not_end_the_string() throws IOException {
        for (int before = 0; before < 24; before++) {
            for (int run = 0; run < 6; run++) {
                String s = "x".repeat(before) + "\\".repeat(run) + "\"" + "y".repeat(before % 9);
                ObjectNode attr = NODES.objectNode().put("S", s);
                byte[] json = JSON.writeValueAsBytes(NODES.arrayNode().add(attr).add(NODES.objectNode().set("t", attr)).add(s));
                JsonScanner p = new JsonScanner(json);
                p.skipValue();
                assertThat(p.offset()).as(new String(json, StandardCharsets.UTF_8)).isEqualTo(json.length);
            }
        }
    }

    @Test
    void names_that_only_look_like_a_one_character_name_are_read_as_strings() throws IOException {
        // "\":x" is the name ":x", "\\" the name \, "\"" the name ": none of them ends at its third byte
        for (String name : List.of("\":]", "\\", "\"", "\":", "\\\":", "S\":\"]", "B\":\"x")) {
            ObjectNode member = NODES.objectNode();
            member.put(name, "]},[{");
            member.set(name + "]", NODES.objectNode().put("S", name));
            byte[] json = JSON.writeValueAsBytes(NODES.arrayNode().add(member).add(NODES.objectNode().put("t", 1).put(name, name)));
            JsonScanner p = new JsonScanner(json);
            int[] count = new int[1];
            int[] starts = p.elementStarts(new int[1], count);
            assertThat(Arrays.copyOf(starts, count[0])).as(new String(json, StandardCharsets.UTF_8)).containsExactly(jacksonElementStarts(json));
            assertThat(p.offset()).isEqualTo(json.length);
        }
    }

    @Test
    void a_shortcut_shape_that_is_not_json_is_refused_where_it_is_wrong() {
        assertRefused("[{\"S\":\"abc}]", "a string does not end");
        assertRefused("[{\"S\":\"abc\"]]", "']' closes nothing opened");
        assertRefused("[{\"t\":{\"S\":\"12345678\\\"}}]", "a string does not end");
        assertRefused("[{\"t\":[1}]", "'}' closes nothing opened");
    }

    private static void assertRefused(String json, String problem) {
        JsonScanner p = new JsonScanner(json.getBytes(StandardCharsets.UTF_8));
        assertThatThrownBy(p::skipValue).as(json).isInstanceOf(JsonScanner.Malformed.class).hasMessageStartingWith(problem);
    }

    private static JsonNode value(Random rnd, int depth) {
        int kind = rnd.nextInt(depth >= 4 ? 4 : 7);
        switch (kind) {
            case 0:
                return NODES.textNode(string(rnd));
            case 1:
                return rnd.nextBoolean() ? NODES.numberNode(rnd.nextInt()) : NODES.numberNode(rnd.nextDouble() * 1e6);
            case 2:
                return rnd.nextInt(3) == 0 ? NODES.nullNode() : NODES.booleanNode(rnd.nextBoolean());
            case 3: {
                // a DynamoDB attribute value
                String type = List.of("S", "B", "N").get(rnd.nextInt(3));
                String v = type.equals("B") ? base64(rnd) : type.equals("N") ? Integer.toString(rnd.nextInt(1000)) : string(rnd);
                return NODES.objectNode().put(type, v);
            }
            case 4: {
                ArrayNode a = NODES.arrayNode();
                for (int k = rnd.nextInt(5); k > 0; k--) {
                    a.add(value(rnd, depth + 1));
                }
                return a;
            }
            default: {
                ObjectNode o = NODES.objectNode();
                for (int k = rnd.nextInt(5); k > 0; k--) {
                    o.set(name(rnd), value(rnd, depth + 1));
                }
                return o;
            }
        }
    }

    private static String name(Random rnd) {
        switch (rnd.nextInt(4)) {
            case 0:
                return string(rnd);
            case 1:
                return List.of("S", "B", "N", "M", "L").get(rnd.nextInt(5));
            default:
                return Character.toString(CHARS.charAt(rnd.nextInt(CHARS.length())));
        }
    }

    private static String string(Random rnd) {
        StringBuilder s = new StringBuilder();
        for (int n = rnd.nextInt(rnd.nextBoolean() ? 4 : 40); n > 0; n--) {
            s.append(rnd.nextInt(3) == 0 ? CHARS.charAt(rnd.nextInt(CHARS.length())) : BASE64.charAt(rnd.nextInt(BASE64.length())));
        }
        return s.toString();
    }

    private static String base64(Random rnd) {
        StringBuilder s = new StringBuilder();
        for (int n = rnd.nextInt(80); n > 0; n--) {
            s.append(BASE64.charAt(rnd.nextInt(BASE64.length())));
        }
        return s.toString();
    }

    private static int[] jacksonElementStarts(byte[] json) throws IOException {
        List<Integer> out = new ArrayList<>();
        try (JsonParser p = JSON.getFactory().createParser(json)) {
            assertThat(p.nextToken()).isEqualTo(JsonToken.START_ARRAY);
            for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
                out.add((int) p.getTokenLocation().getByteOffset());
                p.skipChildren();
            }
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    /** Where each element ends: just past its last byte. */
    private static int[] jacksonElementEnds(byte[] json) throws IOException {
        List<Integer> out = new ArrayList<>();
        try (JsonParser p = JSON.getFactory().createParser(json)) {
            p.nextToken();
            for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
                p.skipChildren();
                p.finishToken(); // a string's end is found only when asked for
                out.add((int) p.currentLocation().getByteOffset());
            }
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }
}

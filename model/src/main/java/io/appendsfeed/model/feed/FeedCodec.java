package io.appendsfeed.model.feed;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.appendsfeed.model.StreamName;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * JSON bodies of the index and epoch events, with exactly the field names of the design. Encoding
 * is compact UTF-8 JSON; decoding ignores unknown fields (a newer writer may add some) but
 * refuses unknown event types and missing or mistyped fields with a {@link FeedFormatException}.
 */
public final class FeedCodec {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private FeedCodec() {}

    // ---- epoch events

    /**
     * Written with Jackson's generator, not through a tree: the indexer encodes one {@code Ingested}
     * of up to 64 KiB per write, and building the tree first was most of the cost (the bytes are the
     * same: golden tests guard them).
     */
    public static byte[] encode(EpochEvent event) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(event instanceof EpochEvent.Ingested i
                ? 64 + 48 * (i.add().size() + i.app().size()) : 2);
        try (JsonGenerator g = JSON.getFactory().createGenerator(out)) {
            g.writeStartObject();
            if (event instanceof EpochEvent.Ingested ingested) {
                writeSpans(g, "add", ingested.add());
                writeSpans(g, "app", ingested.app());
            }
            g.writeEndObject();
        } catch (IOException e) {
            throw new IllegalStateException("cannot encode " + event, e);
        }
        return out.toByteArray();
    }

    private static void writeSpans(JsonGenerator g, String field, List<Span> spans) throws IOException {
        g.writeArrayFieldStart(field);
        for (Span span : spans) {
            g.writeStartObject();
            g.writeStringField("p", span.stream().value());
            g.writeNumberField("i", span.index());
            g.writeArrayFieldStart("c");
            for (String t : span.types()) {
                g.writeString(t);
            }
            g.writeEndArray();
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    /**
     * @throws FeedFormatException when the type is not an epoch event type or the body does not fit it
     */
    public static EpochEvent decodeEpochEvent(String type, byte[] data) {
        switch (type) {
            case EpochEvent.INGESTED: {
                EpochEvent.Ingested fast = data == null || data.length == 0 ? null : ingested(data);
                if (fast != null) {
                    return fast;
                }
                // anything unusual, malformed included: the tree, which names what is wrong
                JsonNode o = parse(type, data);
                return new EpochEvent.Ingested(spans(type, o, "add"), spans(type, o, "app"));
            }
            case EpochEvent.CLOSED:
                return new EpochEvent.Closed();
            default:
                throw new FeedFormatException(type, "unknown epoch event type '" + type
                        + "': this epoch was written by a newer or different format; upgrade appendsfeed to read it");
        }
    }

    /**
     * An {@code Ingested} body read with Jackson's parser, no tree (readers decode every one): null for
     * anything but a well-formed body (then the tree path decodes it, or says what is wrong).
     */
    private static EpochEvent.Ingested ingested(byte[] data) {
        try (JsonParser p = JSON.getFactory().createParser(data)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            List<Span> add = List.of();
            List<Span> app = List.of();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken t = p.nextToken();
                if (field.equals("add") || field.equals("app")) {
                    List<Span> spans = t == JsonToken.VALUE_NULL ? List.of() : t == JsonToken.START_ARRAY ? spans(p) : null;
                    if (spans == null) {
                        return null;
                    }
                    if (field.equals("add")) {
                        add = spans;
                    } else {
                        app = spans;
                    }
                } else {
                    p.skipChildren();
                }
            }
            if (p.currentToken() != JsonToken.END_OBJECT || p.nextToken() != null) {
                return null;
            }
            return new EpochEvent.Ingested(add, app);
        } catch (IOException | IllegalArgumentException e) {
            return null;
        }
    }

    /** The spans of an array the parser is at the start of, or null when one is not {p: string, i: integer, c: [strings]}. */
    private static List<Span> spans(JsonParser p) throws IOException {
        List<Span> spans = new ArrayList<>();
        JsonToken t;
        while ((t = p.nextToken()) == JsonToken.START_OBJECT) {
            String stream = null;
            long index = -1;
            List<String> types = null;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken v = p.nextToken();
                switch (field) {
                    case "p" -> {
                        if (v != JsonToken.VALUE_STRING) {
                            return null;
                        }
                        stream = p.getText();
                    }
                    case "i" -> {
                        if (v != JsonToken.VALUE_NUMBER_INT || p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
                            return null;
                        }
                        index = p.getLongValue();
                    }
                    case "c" -> {
                        if (v != JsonToken.START_ARRAY) {
                            return null;
                        }
                        types = new ArrayList<>(4);
                        while (p.nextToken() == JsonToken.VALUE_STRING) {
                            types.add(p.getText());
                        }
                        if (p.currentToken() != JsonToken.END_ARRAY) {
                            return null;
                        }
                    }
                    default -> p.skipChildren();
                }
            }
            if (stream == null || index < 0 || types == null) {
                return null;
            }
            spans.add(new Span(StreamName.parse(stream), index, types));
        }
        return t == JsonToken.END_ARRAY ? spans : null;
    }

    // ---- index events

    public static byte[] encode(IndexEvent event) {
        ObjectNode o = NODES.objectNode();
        if (event instanceof IndexEvent.Started started) {
            o.put("partition", started.partition().value());
            o.put("epoch", started.epoch().value());
        } else if (event instanceof IndexEvent.Snapshotted snapshotted) {
            ObjectNode active = o.putObject("active");
            snapshotted.active().forEach((p, e) -> active.put(Integer.toString(p.value()), e.value()));
        }
        return bytes(o);
    }

    /**
     * @throws FeedFormatException when the type is not an index event type or the body does not fit it
     */
    public static IndexEvent decodeIndexEvent(String type, byte[] data) {
        JsonNode o = parse(type, data);
        switch (type) {
            case IndexEvent.STARTED:
                return new IndexEvent.Started(PartitionId.of(intField(type, o, "partition")), EpochId.of(intField(type, o, "epoch")));
            case IndexEvent.SNAPSHOTTED: {
                JsonNode active = o.get("active");
                if (active == null || !active.isObject()) {
                    throw new FeedFormatException(type, type + " has no object field 'active'");
                }
                Map<PartitionId, EpochId> map = new TreeMap<>();
                Iterator<Map.Entry<String, JsonNode>> fields = active.fields();
                while (fields.hasNext()) {
                    Map.Entry<String, JsonNode> f = fields.next();
                    try {
                        if (!f.getValue().canConvertToInt()) {
                            throw new NumberFormatException("not an int: " + f.getValue());
                        }
                        map.put(PartitionId.of(Integer.parseInt(f.getKey())), EpochId.of(f.getValue().intValue()));
                    } catch (IllegalArgumentException e) {
                        throw new FeedFormatException(type, type + " has an invalid entry in 'active': "
                                + f.getKey() + " -> " + f.getValue(), e);
                    }
                }
                return new IndexEvent.Snapshotted(map);
            }
            default:
                throw new FeedFormatException(type, "unknown index event type '" + type
                        + "': the index was written by a newer or different format; upgrade appendsfeed to read it");
        }
    }

    // ---- spans

    public static ObjectNode span(Span span) {
        ObjectNode o = NODES.objectNode();
        o.put("p", span.stream().value());
        o.put("i", span.index());
        ArrayNode c = o.putArray("c");
        span.types().forEach(c::add);
        return o;
    }

    private static ArrayNode spans(List<Span> spans) {
        ArrayNode a = NODES.arrayNode();
        spans.forEach(s -> a.add(span(s)));
        return a;
    }

    private static List<Span> spans(String type, JsonNode o, String field) {
        JsonNode a = o.get(field);
        if (a == null || a.isNull()) {
            return List.of(); // other writers may omit an empty list
        }
        if (!a.isArray()) {
            throw new FeedFormatException(type, type + " field '" + field + "' is not an array");
        }
        List<Span> spans = new ArrayList<>(a.size());
        for (JsonNode s : a) {
            try {
                JsonNode p = s.get("p");
                JsonNode i = s.get("i");
                JsonNode c = s.get("c");
                if (p == null || !p.isTextual() || i == null || !i.canConvertToLong() || c == null || !c.isArray()) {
                    throw new IllegalArgumentException("a span needs a string 'p', an integer 'i' and an array 'c'");
                }
                List<String> types = new ArrayList<>(c.size());
                for (JsonNode t : c) {
                    if (!t.isTextual()) {
                        throw new IllegalArgumentException("event types in 'c' must be strings");
                    }
                    types.add(t.textValue());
                }
                spans.add(new Span(StreamName.parse(p.textValue()), i.longValue(), types));
            } catch (IllegalArgumentException e) {
                throw new FeedFormatException(type, type + " has an invalid span in '" + field + "': " + abbreviate(s.toString())
                        + " (" + e.getMessage() + ")", e);
            }
        }
        return spans;
    }

    // ---- plumbing

    private static int intField(String type, JsonNode o, String field) {
        JsonNode v = o.get(field);
        if (v == null || !v.canConvertToInt()) {
            throw new FeedFormatException(type, type + " has no integer field '" + field + "'");
        }
        return v.intValue();
    }

    private static JsonNode parse(String type, byte[] data) {
        if (data == null || data.length == 0) {
            return NODES.objectNode();
        }
        try {
            JsonNode node = JSON.readTree(data);
            if (node == null || node.isNull() || node.isMissingNode()) {
                return NODES.objectNode();
            }
            if (!node.isObject()) {
                throw new FeedFormatException(type, type + " body is not a JSON object: " + abbreviate(node.toString()));
            }
            return node;
        } catch (IOException e) {
            throw new FeedFormatException(type, type + " body is not JSON: "
                    + abbreviate(new String(data, StandardCharsets.UTF_8)), e);
        }
    }

    private static byte[] bytes(JsonNode node) {
        try {
            return JSON.writeValueAsBytes(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot encode " + node, e);
        }
    }

    private static String abbreviate(String s) {
        return s.length() <= 120 ? s : s.substring(0, 117) + "...";
    }
}

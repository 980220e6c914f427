package io.appendsfeed.model.feed;

import com.fasterxml.jackson.core.JsonProcessingException;
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

    public static byte[] encode(EpochEvent event) {
        ObjectNode o = NODES.objectNode();
        if (event instanceof EpochEvent.Ingested ingested) {
            o.set("add", spans(ingested.add()));
            o.set("app", spans(ingested.app()));
        }
        return bytes(o);
    }

    /**
     * @throws FeedFormatException when the type is not an epoch event type or the body does not fit it
     */
    public static EpochEvent decodeEpochEvent(String type, byte[] data) {
        switch (type) {
            case EpochEvent.INGESTED: {
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

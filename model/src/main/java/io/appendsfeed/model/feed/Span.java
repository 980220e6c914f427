package io.appendsfeed.model.feed;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.appendsfeed.model.StreamName;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** Newly appended events of one stream: {@code {"p":stream,"i":index of the first,"c":[types]}}, field names fixed by the format. */
public record Span(StreamName stream, long index, List<String> types) {

    public Span {
        Objects.requireNonNull(stream, "stream");
        Objects.requireNonNull(types, "types");
        if (index < 0) {
            throw new IllegalArgumentException("span index must be >= 0, was " + index + " for " + stream);
        }
        if (types.isEmpty()) {
            throw new IllegalArgumentException("a span holds at least one event type, " + stream + "@" + index + " has none");
        }
        for (String t : types) {
            if (t == null || t.isEmpty()) {
                throw new IllegalArgumentException("span " + stream + "@" + index + " has an empty event type");
            }
        }
        types = List.copyOf(types);
    }

    public static Span of(String stream, long index, String... types) {
        return new Span(StreamName.parse(stream), index, List.of(types));
    }

    public int count() {
        return types.size();
    }

    public long nextIndex() {
        return index + types.size();
    }

    /** The part of this span at or after {@code from}, or null when nothing is left. */
    public Span from(long from) {
        if (from <= index) {
            return this;
        }
        if (from >= nextIndex()) {
            return null;
        }
        return new Span(stream, from, types.subList((int) (from - index), types.size()));
    }

    /** The first {@code n} events of this span, {@code 1 <= n <= count()}. */
    public Span prefix(int n) {
        return n == types.size() ? this : new Span(stream, index, types.subList(0, n));
    }

    /** This span followed by {@code next}, which must be of the same stream and start where this one ends. */
    public Span concat(Span next) {
        if (!next.stream.equals(stream) || next.index != nextIndex()) {
            throw new IllegalArgumentException(next + " does not continue " + this);
        }
        List<String> all = new ArrayList<>(types.size() + next.types.size());
        all.addAll(types);
        all.addAll(next.types);
        return new Span(stream, index, all);
    }

    void writeJson(ObjectNode o) {
        o.put("p", stream.value()).put("i", index);
        types.forEach(o.putArray("c")::add);
    }

    /** @throws IllegalArgumentException saying what is wrong when {@code o} is not a span */
    static Span readJson(JsonNode o) {
        JsonNode p = o.path("p"), i = o.path("i"), c = o.path("c");
        List<String> types = new ArrayList<>(c.size());
        c.forEach(t -> types.add(t.textValue())); // null when not a string
        if (!p.isTextual() || !i.isIntegralNumber() || !i.canConvertToLong() || !c.isArray() || types.contains(null)) {
            throw new IllegalArgumentException("a span needs a string 'p', an integer 'i' and an array 'c' of strings");
        }
        return new Span(StreamName.parse(p.textValue()), i.longValue(), types);
    }

    /** Bytes of this span's JSON as Jackson writes it in UTF-8 but for the types' (which add a comma each; the last has none). */
    long headBytes() {
        return "{\"p\":,\"i\":,\"c\":[]}".length() - 1 + quotedBytes(stream.value()) + Long.toString(index).length();
    }

    /** Bytes the types take, a comma each: what they add to a span they continue. */
    long typesBytes() {
        return types.stream().mapToLong(t -> quotedBytes(t) + 1).sum();
    }

    /** How many of the types, from the first, fit {@code room} bytes as {@link #typesBytes} counts them. */
    int typesWithin(long room) {
        int n = 0;
        for (String type : types) {
            room -= quotedBytes(type) + 1;
            if (room < 0) {
                break;
            }
            n++;
        }
        return n;
    }

    private static long quotedBytes(String s) {
        return JsonStringEncoder.getInstance().quoteAsUTF8(s).length + 2;
    }

    @Override
    public String toString() {
        return stream + "@" + index + types;
    }
}

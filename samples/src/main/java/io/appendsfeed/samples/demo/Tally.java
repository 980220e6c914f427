package io.appendsfeed.samples.demo;

import io.appendsfeed.model.StreamName;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Events per stream as one party saw them (the writers, the feed, a reactor), with the problems it
 * noticed on the way (a gap, an event twice).
 *
 * @param name what counted, e.g. {@code written}
 */
public record Tally(String name, Map<StreamName, Long> perStream, List<String> problems) {

    public Tally {
        Objects.requireNonNull(name, "name");
        perStream = java.util.Collections.unmodifiableMap(new TreeMap<>(perStream));
        problems = List.copyOf(problems);
    }

    public static Tally of(String name, Map<StreamName, Long> perStream) {
        return new Tally(name, perStream, List.of());
    }

    public long total() {
        return perStream.values().stream().mapToLong(Long::longValue).sum();
    }

    public long count(StreamName stream) {
        return perStream.getOrDefault(stream, 0L);
    }
}

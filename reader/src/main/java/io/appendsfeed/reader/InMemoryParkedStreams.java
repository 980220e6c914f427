package io.appendsfeed.reader;

import io.appendsfeed.model.StreamName;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Parked streams in this process's memory: for tests. */
public final class InMemoryParkedStreams implements ParkedStreams {

    private record Key(String group, StreamName stream) {}

    private final Map<Key, ParkedStream> parked = new LinkedHashMap<>();

    @Override
    public synchronized void park(ParkedStream p) {
        parked.put(new Key(p.group(), p.stream()), p);
    }

    @Override
    public synchronized boolean release(String group, StreamName stream, String by) {
        return parked.remove(new Key(group, stream)) != null;
    }

    @Override
    public synchronized List<ParkedStream> list(String group) {
        return parked.values().stream().filter(p -> p.group().equals(group)).toList();
    }
}

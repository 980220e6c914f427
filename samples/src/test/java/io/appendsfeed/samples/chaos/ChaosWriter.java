package io.appendsfeed.samples.chaos;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.AppendResult;
import io.appendsfeed.model.store.EventData;
import io.appendsfeed.model.store.Expected;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoredEvent;
import io.appendsfeed.model.store.Tip;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * An application writing through a faulty store client, as a real one must: an append that throws
 * may or may not have landed (an ambiguous timeout), so the writer re-reads the stream and decides:
 * landed (its types are there), or not (try again, up to a few times, then give up on that append).
 * Every event type is unique, so "its types are there" is exact. What it believes it wrote is
 * checked against what the store holds; the store is the truth for the rest of the run.
 */
final class ChaosWriter {

    private static final int ATTEMPTS = 4;
    private static final int READ_ATTEMPTS = 20;

    private final StoreClient store;
    private final Map<StreamName, List<String>> believed = new LinkedHashMap<>();
    private final Map<StreamName, Long> versions = new HashMap<>();
    int ambiguous;
    int abandoned;

    ChaosWriter(StoreClient store) {
        this.store = store;
    }

    /** Writes every append of the schedule; returns what the writer believes each stream now holds. */
    Map<StreamName, List<String>> write(Schedule schedule) {
        int k = 0;
        for (Schedule.Append a : schedule.appends()) {
            List<EventData> events = new ArrayList<>();
            for (int e = 0; e < a.bodies().size(); e++) {
                events.add(EventData.json("A" + k + "e" + e, body(k, e, a.bodies().get(e))));
            }
            append(a.stream(), events);
            k++;
        }
        return believed;
    }

    private void append(StreamName stream, List<EventData> events) {
        List<String> types = events.stream().map(EventData::type).toList();
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            long version = versions.getOrDefault(stream, 0L);
            try {
                AppendResult r = store.append(stream, Expected.version(version), events);
                if (r instanceof AppendResult.Written w) {
                    landed(stream, types, w.version());
                    return;
                }
                // a conflict: only this writer writes the stream, so an earlier attempt landed after all
            } catch (RuntimeException e) {
                ambiguous++;
            }
            Tip tip = retry(() -> store.readTip(stream, true)).orElse(null);
            long now = tip == null ? 0 : tip.version();
            if (now == version + types.size() && endsWith(stream, now, types)) {
                landed(stream, types, now);
                return;
            }
            if (now != version) {
                throw new AssertionError(stream + " is at " + now + ", neither " + version + " nor " + (version + types.size())
                        + ": a write landed that the writer cannot account for");
            }
        }
        abandoned++; // gave up: the events are not in the store, and the writer knows it
    }

    private boolean endsWith(StreamName stream, long version, List<String> types) {
        List<StoredEvent> last = retry(() -> store.readAll(stream, io.appendsfeed.model.store.Read.forward(version - types.size())
                .typesOnly().strongly()));
        return last.stream().map(StoredEvent::type).toList().equals(types);
    }

    private void landed(StreamName stream, List<String> types, long version) {
        versions.put(stream, version);
        believed.computeIfAbsent(stream, s -> new ArrayList<>()).addAll(types);
    }

    /** Reads through the faulty client too: a few faults in a row, then it gets through. */
    static <T> T retry(Supplier<T> read) {
        RuntimeException last = null;
        for (int k = 0; k < READ_ATTEMPTS; k++) {
            try {
                return read.get();
            } catch (RuntimeException e) {
                last = e;
            }
        }
        throw new AssertionError("still failing after " + READ_ATTEMPTS + " attempts", last);
    }

    private static String body(int append, int event, int size) {
        StringBuilder sb = new StringBuilder("{\"a\":").append(append).append(",\"e\":").append(event).append(",\"pad\":\"");
        for (int k = 0; k < size; k++) {
            sb.append((char) ('a' + (k * 7 + append) % 26));
        }
        return sb.append("\"}").toString();
    }
}

package io.appendsfeed.samples.bank;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** An in-process outbox: keeps what was published, in order, once per id. Thread-safe. */
public final class InMemoryOutbox implements Outbox {

    private final Map<String, Notification> published = new LinkedHashMap<>();
    private long duplicates;

    @Override
    public synchronized boolean publish(Notification notification) {
        if (published.putIfAbsent(notification.id(), notification) != null) {
            duplicates++;
            return false;
        }
        return true;
    }

    /** What was published, each once, in the order it was. */
    public synchronized List<Notification> published() {
        return List.copyOf(published.values());
    }

    /** Publications refused because their id was already published (redeliveries). */
    public synchronized long duplicates() {
        return duplicates;
    }
}

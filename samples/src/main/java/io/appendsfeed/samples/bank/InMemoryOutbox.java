package io.appendsfeed.samples.bank;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/** An in-process outbox: keeps what was published, in order, once per id. Thread-safe. */
public final class InMemoryOutbox implements Outbox {

    private final Map<String, Notification> byId = new ConcurrentHashMap<>();
    private final List<Notification> published = new CopyOnWriteArrayList<>();
    private final AtomicLong duplicates = new AtomicLong();

    @Override
    public boolean publish(Notification notification) {
        if (byId.putIfAbsent(notification.id(), notification) != null) {
            duplicates.incrementAndGet();
            return false;
        }
        published.add(notification);
        return true;
    }

    /** What was published, each once, in the order it was. */
    public List<Notification> published() {
        return List.copyOf(published);
    }

    /** Publications refused because their id was already published (redeliveries). */
    public long duplicates() {
        return duplicates.get();
    }
}

package io.appendsfeed.indexer.notifier;

import io.appendsfeed.indexer.notifier.NotifierHandler.Publisher;
import io.appendsfeed.model.feed.FeedNotification;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * Test support: an in-memory {@link Publisher} that keeps each call's notifications and hands them
 * on (to a reactor, in the end-to-end tests). Only to connect the pieces: sending for real is
 * tested with {@link SnsPublisher} on a local SNS.
 */
final class RecordingPublisher implements Publisher {

    final List<List<FeedNotification>> calls = new CopyOnWriteArrayList<>();
    private final Consumer<List<FeedNotification>> next;

    RecordingPublisher() {
        this(n -> {});
    }

    RecordingPublisher(Consumer<List<FeedNotification>> next) {
        this.next = next;
    }

    @Override
    public void publish(List<FeedNotification> notifications) {
        calls.add(List.copyOf(notifications));
        next.accept(notifications);
    }

    List<FeedNotification> all() {
        return calls.stream().flatMap(List::stream).toList();
    }
}

package io.appendsfeed.indexer.notifier;

import io.appendsfeed.indexer.notifier.NotifierHandler.Publisher;
import io.appendsfeed.model.feed.FeedNotification;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Test support: between the notifier and its topic, loses, repeats and reorders notifications (a
 * held-back one goes out after newer ones, with the next call), or, when told, loses them all.
 */
final class ChaosPublisher implements Publisher {

    private final Publisher delegate;
    private final Random random;
    private final List<FeedNotification> heldBack = new ArrayList<>();
    private volatile boolean loseAll;
    final AtomicInteger lost = new AtomicInteger();
    final AtomicInteger repeated = new AtomicInteger();
    final AtomicInteger reordered = new AtomicInteger();

    ChaosPublisher(Publisher delegate, long seed) {
        this.delegate = delegate;
        this.random = new Random(seed);
    }

    void loseAll() {
        loseAll = true;
    }

    @Override
    public synchronized void publish(List<FeedNotification> notifications) {
        List<FeedNotification> out = new ArrayList<>();
        List<FeedNotification> late = new ArrayList<>(heldBack);
        heldBack.clear();
        for (FeedNotification n : notifications) {
            if (loseAll) {
                lost.incrementAndGet();
                continue;
            }
            int roll = random.nextInt(4);
            switch (roll) {
                case 0 -> lost.incrementAndGet();
                case 1 -> {
                    out.add(n);
                    out.add(n);
                    repeated.incrementAndGet();
                }
                case 2 -> {
                    heldBack.add(n);
                    reordered.incrementAndGet();
                }
                default -> out.add(n);
            }
        }
        out.addAll(late); // older positions after newer ones
        for (FeedNotification n : out) {
            delegate.publish(List.of(n)); // one at a time: a batch takes one entry per partition
        }
    }
}

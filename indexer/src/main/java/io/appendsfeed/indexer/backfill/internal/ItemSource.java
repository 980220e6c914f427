package io.appendsfeed.indexer.backfill.internal;

import io.appendsfeed.model.store.StoreItem;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * Where a backfill reads the store's items from: tasks run in parallel (scan segments, export
 * files), each handing every item it reads to the sink. Whatever the source, what follows is the
 * same: assembly into streams, then ingestion.
 *
 * @param estimatedItems how many items to expect, or -1 when unknown
 */
public record ItemSource(String description, long estimatedItems, List<Task> tasks) {

    public ItemSource {
        tasks = List.copyOf(tasks);
    }

    /** One part of the source, read from one thread. */
    @FunctionalInterface
    public interface Task {
        /** Hands each item to {@code sink} and counts it in {@code scanned}, until done or {@code cancelled}. */
        void read(Consumer<StoreItem> sink, AtomicLong scanned, BooleanSupplier cancelled);
    }
}

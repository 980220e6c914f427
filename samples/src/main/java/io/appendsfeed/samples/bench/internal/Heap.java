package io.appendsfeed.samples.bench.internal;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * Heap figures: used heap after forced full collections (what is live), and a {@link Watch} that
 * records, while it runs, the highest used heap (sampled every millisecond) and the highest heap
 * left after any collection (from GC notifications: the peak of what was live).
 */
public final class Heap {

    private Heap() {
    }

    /** Used heap after two full collections (G1's {@code System.gc()} is a synchronous full GC). */
    public static long usedAfterGc() {
        System.gc();
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    public static Watch watch() {
        return new Watch();
    }

    /** Watches the heap until closed. */
    public static final class Watch implements AutoCloseable {
        private final AtomicLong peakUsed = new AtomicLong();
        private final AtomicLong peakAfterGc = new AtomicLong();
        private final AtomicLong collections = new AtomicLong();
        private final Set<String> heapPools = ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(p -> p.getType() == MemoryType.HEAP).map(MemoryPoolMXBean::getName).collect(Collectors.toSet());
        private final List<NotificationEmitter> emitters = new ArrayList<>();
        private final NotificationListener listener = this::onGc;
        private final Thread sampler;
        private volatile boolean running = true;

        private Watch() {
            for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
                if (gc instanceof NotificationEmitter e) {
                    e.addNotificationListener(listener, null, null);
                    emitters.add(e);
                }
            }
            sampler = new Thread(() -> {
                while (running) {
                    peakUsed.accumulateAndGet(ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed(), Math::max);
                    try {
                        Thread.sleep(1);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "bench-heap-sampler");
            sampler.setDaemon(true);
            sampler.start();
        }

        private void onGc(Notification n, Object handback) {
            if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType())) {
                return;
            }
            var info = GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
            long after = 0;
            for (var e : info.getGcInfo().getMemoryUsageAfterGc().entrySet()) {
                if (heapPools.contains(e.getKey())) {
                    MemoryUsage u = e.getValue();
                    after += u.getUsed();
                }
            }
            peakAfterGc.accumulateAndGet(after, Math::max);
            collections.incrementAndGet();
        }

        public long peakUsed() {
            return peakUsed.get();
        }

        /** 0 when no collection ran while watching. */
        public long peakAfterGc() {
            return peakAfterGc.get();
        }

        public long collections() {
            return collections.get();
        }

        @Override
        public void close() {
            running = false;
            sampler.interrupt();
            for (NotificationEmitter e : emitters) {
                try {
                    e.removeNotificationListener(listener);
                } catch (ListenerNotFoundException x) {
                    throw new IllegalStateException("GC listener vanished: " + x.getMessage(), x);
                }
            }
        }
    }
}

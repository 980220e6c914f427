package io.appendsfeed.reader.internal;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.PartitionId;
import java.util.Map;
import org.slf4j.MDC;

/**
 * What a thread is working on, as key-values in the SLF4J MDC ({@value #GROUP}, {@value #PARTITION},
 * {@value #STREAM}) so that every log line about it carries them, the handler's own lines included.
 * The partition is also kept in a thread-local of our own, so that capacity is counted per partition
 * whatever the logging binding does with the MDC. Closing restores what the thread had before.
 */
public final class LogContext implements AutoCloseable {

    public static final String GROUP = "group";
    public static final String PARTITION = "partition";
    public static final String STREAM = "stream";

    private static final ThreadLocal<PartitionId> CURRENT = new ThreadLocal<>();

    private final Map<String, String> before = MDC.getCopyOfContextMap();
    private final PartitionId partitionBefore = CURRENT.get();

    private LogContext(String group, PartitionId partition, StreamName stream) {
        put(GROUP, group);
        put(PARTITION, partition == null ? null : String.valueOf(partition.value()));
        put(STREAM, stream == null ? null : stream.value());
        CURRENT.set(partition);
    }

    /** A partition's walk; the group's own work (lease upkeep) when {@code partition} is null. */
    public static LogContext partition(String group, PartitionId partition) {
        return new LogContext(group, partition, null);
    }

    /** A handler call and what the reader does around it. */
    public static LogContext stream(String group, PartitionId partition, StreamName stream) {
        return new LogContext(group, partition, stream);
    }

    /** The partition this thread works on now, or null. */
    public static PartitionId currentPartition() {
        return CURRENT.get();
    }

    @Override
    public void close() {
        MDC.setContextMap(before == null ? Map.of() : before);
        CURRENT.set(partitionBefore);
    }

    private static void put(String key, String value) {
        if (value == null) {
            MDC.remove(key);
        } else {
            MDC.put(key, value);
        }
    }
}

package io.appendsfeed.model.feed;

import io.appendsfeed.model.StreamName;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;

/**
 * {@code floorMod(crc32(utf8(stream)), partitions)}: defines the storage format, a stream maps to the same
 * partition in every implementation for life, so the function and the recorded partition count never change.
 */
public final class Partitioner {

    private Partitioner() {}

    public static PartitionId route(StreamName stream, int partitions) {
        if (partitions < 1) {
            throw new IllegalArgumentException("partitions must be >= 1, was " + partitions);
        }
        CRC32 crc = new CRC32();
        crc.update(stream.value().getBytes(StandardCharsets.UTF_8));
        return PartitionId.of((int) Math.floorMod(crc.getValue(), (long) partitions)); // CRC-32 (IEEE), unsigned
    }
}

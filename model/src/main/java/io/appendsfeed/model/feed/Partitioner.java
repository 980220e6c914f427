package io.appendsfeed.model.feed;

import io.appendsfeed.model.StreamName;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;

/**
 * Routes a stream to its partition: {@code floorMod(crc32(utf8(stream)), partitions)}. This
 * defines the storage format: a stream must map to the same partition in every indexer, reader
 * and implementation for life, so the function and the recorded partition count never change.
 */
public final class Partitioner {

    private Partitioner() {}

    /**
     * @throws IllegalArgumentException when partitions is not positive
     */
    public static PartitionId route(StreamName stream, int partitions) {
        if (partitions < 1) {
            throw new IllegalArgumentException("partitions must be >= 1, was " + partitions);
        }
        if (partitions == 1) {
            return PartitionId.of(0); // whatever the hash: no bytes to encode, no checksum to take
        }
        CRC32 crc = new CRC32();
        crc.update(stream.value().getBytes(StandardCharsets.UTF_8));
        // CRC-32 (IEEE) taken as its unsigned 32-bit value, in [0, 2^32): floorMod is then plain modulo
        long hash = crc.getValue();
        return PartitionId.of((int) Math.floorMod(hash, (long) partitions));
    }
}

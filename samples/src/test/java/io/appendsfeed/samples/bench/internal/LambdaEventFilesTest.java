package io.appendsfeed.samples.bench.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.serialization.PojoSerializer;
import com.amazonaws.services.lambda.runtime.serialization.events.LambdaEventSerializers;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.EventData;
import io.appendsfeed.model.store.Expected;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.model.store.StoreTables;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * The Lambda events the benchmark hands both handlers: cut from real Streams records of a stream
 * with two shards (a forced rollover), never across a shard, at most K records each, in order, and
 * read back by the Lambda runtime's own serializer as the very records they came from.
 */
@ExtendWith(LocalDynamoExtension.class)
class LambdaEventFilesTest {

    private static final int K = 3;

    @Test
    void batches_of_k_never_cross_a_shard_and_the_lambda_serializer_reads_back_the_records(LocalDynamo local, @TempDir Path dir)
            throws IOException {
        DynamoDbClient dynamo = local.embedded().dynamoDbClient();
        DynamoDbStreamsClient streams = local.embedded().dynamoDbStreamsClient();
        String table = local.freshTableName("lambda-files");
        StoreTables.ensure(dynamo, table, StreamViewType.NEW_IMAGE);
        StoreClient store = new StoreClient(dynamo, StoreConfig.builder(table).build());
        append(store, "Order-1", 4);
        local.embedded().triggerShardRollovers(); // the parent shard closes with 4 records, a child takes the next
        append(store, "Order-2", 5);

        Map<String, String> shardOf = new HashMap<>();
        Map<String, Record> bySequence = new HashMap<>();
        List<String> order = new ArrayList<>();
        LambdaEventFiles.scan(dynamo, streams, table, (shardId, page) -> page.forEach(r -> {
            shardOf.put(r.dynamodb().sequenceNumber(), shardId);
            bySequence.put(r.dynamodb().sequenceNumber(), r);
            order.add(r.dynamodb().sequenceNumber());
        }), shardId -> { });
        assertThat(order).hasSize(9);
        assertThat(shardOf.values().stream().distinct()).as("shards").hasSize(2);

        String arn = LambdaEventFiles.streamArn(dynamo, table);
        Files.writeString(dir.resolve("batch-000099.json"), "{\"Records\":[]}"); // an earlier run's
        Files.writeString(dir.resolve("notes.txt"), "not a batch");
        LambdaEventFiles.Written w = LambdaEventFiles.write(dynamo, streams, table, K, dir);
        // 4 records in the first shard make batches of 3 and 1; 5 in the second make 3 and 2
        assertThat(w.batches()).isEqualTo(4);
        assertThat(w.records()).isEqualTo(9);
        assertThat(w.shards()).isEqualTo(2);
        assertThat(dir.resolve("batch-000099.json")).as("an earlier run's batch, so that no handler gets it").doesNotExist();
        assertThat(dir.resolve("notes.txt")).as("only batch files are ours to delete").exists();
        Files.delete(dir.resolve("notes.txt"));

        PojoSerializer<DynamodbEvent> serializer = LambdaEventSerializers.serializerFor(DynamodbEvent.class,
                LambdaEventFilesTest.class.getClassLoader());
        List<String> delivered = new ArrayList<>();
        List<Integer> sizes = new ArrayList<>();
        try (Stream<Path> s = Files.list(dir)) {
            for (Path f : s.sorted().toList()) {
                DynamodbEvent event;
                try (InputStream in = Files.newInputStream(f)) {
                    event = serializer.fromJson(in);
                }
                sizes.add(event.getRecords().size());
                assertThat(event.getRecords()).extracting(r -> shardOf.get(r.getDynamodb().getSequenceNumber()))
                        .as("shards in " + f.getFileName()).containsOnly(shardOf.get(event.getRecords().get(0).getDynamodb().getSequenceNumber()));
                for (DynamodbEvent.DynamodbStreamRecord r : event.getRecords()) {
                    assertThat(r.getEventSourceARN()).isEqualTo(arn);
                    Record original = bySequence.get(r.getDynamodb().getSequenceNumber());
                    assertThat(r.getEventName()).isEqualTo(original.eventNameAsString());
                    assertThat(r.getDynamodb().getStreamViewType()).isEqualTo(original.dynamodb().streamViewTypeAsString());
                    assertThat(v2(r.getDynamodb().getKeys())).isEqualTo(original.dynamodb().keys());
                    assertThat(v2(r.getDynamodb().getNewImage())).as("the whole new image, binary bodies included")
                            .isEqualTo(original.dynamodb().newImage());
                    delivered.add(r.getDynamodb().getSequenceNumber());
                }
            }
        }
        assertThat(sizes).containsExactly(3, 1, 3, 2);
        assertThat(delivered).as("every record once, in stream order").isEqualTo(order);
    }

    @Test
    void a_batch_size_outside_lambdas_range_is_refused(@TempDir Path dir) {
        assertThatThrownBy(() -> LambdaEventFiles.write(null, null, "t", 0, dir))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1..10,000");
        assertThatThrownBy(() -> LambdaEventFiles.write(null, null, "t", 10_001, dir))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1..10,000");
    }

    /** The Lambda event's attribute values as the SDK's, every type the store writes. */
    private static Map<String, AttributeValue> v2(Map<String, com.amazonaws.services.lambda.runtime.events.models.dynamodb.AttributeValue> m) {
        Map<String, AttributeValue> out = new HashMap<>();
        m.forEach((k, v) -> out.put(k, v2(v)));
        return out;
    }

    private static AttributeValue v2(com.amazonaws.services.lambda.runtime.events.models.dynamodb.AttributeValue v) {
        if (v.getS() != null) return AttributeValue.fromS(v.getS());
        if (v.getN() != null) return AttributeValue.fromN(v.getN());
        if (v.getB() != null) return AttributeValue.fromB(SdkBytes.fromByteBuffer(v.getB().duplicate()));
        if (v.getM() != null) return AttributeValue.fromM(v2(v.getM()));
        if (v.getL() != null) return AttributeValue.fromL(v.getL().stream().map(LambdaEventFilesTest::v2).toList());
        throw new IllegalArgumentException("an attribute type the store does not write: " + v);
    }

    private static void append(StoreClient store, String stream, int events) {
        for (int k = 0; k < events; k++) {
            store.append(StreamName.parse(stream), Expected.version(k), List.of(EventData.json("Placed", "{\"k\":" + k + "}")));
        }
    }
}

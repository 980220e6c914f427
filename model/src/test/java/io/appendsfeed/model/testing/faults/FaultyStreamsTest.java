package io.appendsfeed.model.testing.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.LimitExceededException;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

@ExtendWith(LocalDynamoExtension.class)
class FaultyStreamsTest {

    @Test
    void get_records_throttled_once_then_the_records_arrive(LocalDynamo local) {
        String table = FaultTables.create(local, true);
        local.dynamo().putItem(FaultTables.put(table, "s-1", 0));
        FaultInjector faults = new FaultInjector(FaultPlan.builder().nth("GetRecords", 1, Fault.throttle()).build());
        DynamoDbStreamsClient streams = faults.wrap(local.streams());
        String iterator = firstShardIterator(streams, streamArn(local, table));

        LimitExceededException thrown = catchThrowableOfType(LimitExceededException.class,
                () -> streams.getRecords(b -> b.shardIterator(iterator)));
        var records = streams.getRecords(b -> b.shardIterator(iterator)).records();

        assertThat(thrown.awsErrorDetails().errorCode()).isEqualTo("LimitExceededException");
        assertThat(records).singleElement().satisfies(r -> assertThat(r.dynamodb().keys()).isEqualTo(FaultTables.key("s-1", 0)));
        assertThat(faults.injected()).containsExactly(new InjectedFault("GetRecords", 1, Fault.throttle()));
        assertThat(faults.calls("GetRecords")).isEqualTo(2);
    }

    @Test
    void other_streams_operations_throttle_with_the_throttling_error_code(LocalDynamo local) {
        String table = FaultTables.create(local, true);
        String arn = streamArn(local, table);
        FaultInjector faults = new FaultInjector(FaultPlan.builder().nth("DescribeStream", 1, Fault.throttle()).build());
        DynamoDbStreamsClient streams = faults.wrap(local.streams());

        DynamoDbException thrown = catchThrowableOfType(DynamoDbException.class,
                () -> streams.describeStream(b -> b.streamArn(arn)));

        assertThat(thrown).isNotInstanceOf(LimitExceededException.class);
        assertThat(thrown.awsErrorDetails().errorCode()).isEqualTo("ThrottlingException");
        assertThat(thrown.isThrottlingException()).isTrue();
        assertThat(streams.describeStream(b -> b.streamArn(arn)).streamDescription().streamArn()).isEqualTo(arn);
    }

    @Test
    void one_injector_counts_dynamodb_and_streams_operations_apart(LocalDynamo local) {
        String table = FaultTables.create(local, true);
        FaultInjector faults = new FaultInjector(FaultPlan.none());
        faults.wrap(local.dynamo()).putItem(FaultTables.put(table, "s-1", 0));
        DynamoDbStreamsClient streams = faults.wrap(local.streams());

        streams.getRecords(b -> b.shardIterator(firstShardIterator(streams, streamArn(local, table))));

        assertThat(faults.calls("PutItem")).isEqualTo(1);
        assertThat(faults.calls("DescribeStream")).isEqualTo(1);
        assertThat(faults.calls("GetShardIterator")).isEqualTo(1);
        assertThat(faults.calls("GetRecords")).isEqualTo(1);
        assertThat(faults.injected()).isEmpty();
    }

    private static String streamArn(LocalDynamo local, String table) {
        return local.dynamo().describeTable(b -> b.tableName(table)).table().latestStreamArn();
    }

    private static String firstShardIterator(DynamoDbStreamsClient streams, String arn) {
        String shard = streams.describeStream(b -> b.streamArn(arn)).streamDescription().shards().get(0).shardId();
        return streams.getShardIterator(b -> b.streamArn(arn).shardId(shard)
                .shardIteratorType(ShardIteratorType.TRIM_HORIZON)).shardIterator();
    }
}

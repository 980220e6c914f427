package io.appendsfeed.model.testing.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.appendsfeed.model.DynamoClients;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

@ExtendWith(LocalDynamoExtension.class)
class FaultInjectorTest {

    @Test
    void fail_before_leaves_nothing_written(LocalDynamo local) {
        String table = FaultTables.create(local, false);
        FaultInjector faults = new FaultInjector(FaultPlan.builder().nth("PutItem", 1, Fault.failBefore()).build());

        SdkClientException thrown = catchThrowableOfType(SdkClientException.class,
                () -> faults.wrap(local.dynamo()).putItem(FaultTables.put(table, "s-1", 0)));

        assertThat(thrown).isNotInstanceOf(ApiCallTimeoutException.class).hasCauseInstanceOf(SocketTimeoutException.class);
        assertThat(FaultTables.get(local.dynamo(), table, "s-1", 0)).isEmpty();
        assertThat(faults.injected()).containsExactly(new InjectedFault("PutItem", 1, Fault.failBefore()));
    }

    @Test
    void fail_after_writes_the_item_while_the_caller_sees_a_timeout(LocalDynamo local) {
        String table = FaultTables.create(local, false);
        FaultInjector faults = new FaultInjector(FaultPlan.builder().nth("PutItem", 1, Fault.failAfter()).build());

        assertThatThrownBy(() -> faults.wrap(local.dynamo()).putItem(FaultTables.put(table, "s-1", 0)))
                .isInstanceOf(ApiCallTimeoutException.class);

        assertThat(FaultTables.get(local.dynamo(), table, "s-1", 0)).containsEntry("p", AttributeValue.fromS("s-1"));
        assertThat(faults.count(Fault.FailAfter.class)).isEqualTo(1);
    }

    @Test
    void fail_after_hides_a_rejected_write_behind_the_same_timeout(LocalDynamo local) {
        String table = FaultTables.create(local, false);
        local.dynamo().putItem(FaultTables.put(table, "s-1", 0));
        FaultInjector faults = new FaultInjector(FaultPlan.builder().every("PutItem", Fault.failAfter()).build());
        PutItemRequest conditional = FaultTables.put(table, "s-1", 0).toBuilder()
                .conditionExpression("attribute_not_exists(p)").build();

        ApiCallTimeoutException thrown = catchThrowableOfType(ApiCallTimeoutException.class,
                () -> faults.wrap(local.dynamo()).putItem(conditional));

        assertThat(thrown.getSuppressed()).singleElement().isInstanceOf(ConditionalCheckFailedException.class);
    }

    @Test
    void throttle_throws_provisioned_throughput_exceeded_that_the_sdk_calls_throttling(LocalDynamo local) {
        String table = FaultTables.create(local, false);
        FaultInjector faults = new FaultInjector(FaultPlan.builder().every("UpdateItem", Fault.throttle()).build());

        ProvisionedThroughputExceededException thrown = catchThrowableOfType(ProvisionedThroughputExceededException.class,
                () -> faults.wrap(local.dynamo()).updateItem(b -> b.tableName(table)
                        .key(FaultTables.key("s-1", 0)).updateExpression("SET v = :v")
                        .expressionAttributeValues(Map.of(":v", AttributeValue.fromN("1")))));

        assertThat(thrown.isThrottlingException()).isTrue();
        assertThat(thrown.statusCode()).isEqualTo(400);
        assertThat(thrown.awsErrorDetails().errorCode()).isEqualTo("ProvisionedThroughputExceededException");
        assertThat(FaultTables.get(local.dynamo(), table, "s-1", 0)).isEmpty();
    }

    @Test
    void delay_lets_the_call_through_and_is_recorded(LocalDynamo local) {
        String table = FaultTables.create(local, false);
        Fault delay = Fault.delay(Duration.ofMillis(2));
        FaultInjector faults = new FaultInjector(FaultPlan.builder().nth("PutItem", 1, delay).build());

        faults.wrap(local.dynamo()).putItem(FaultTables.put(table, "s-1", 0));

        assertThat(FaultTables.get(local.dynamo(), table, "s-1", 0)).isNotEmpty();
        assertThat(faults.injected()).containsExactly(new InjectedFault("PutItem", 1, delay));
    }

    @Test
    void call_number_targets_exactly_the_nth_call(LocalDynamo local) {
        String table = FaultTables.create(local, false);
        FaultInjector faults = new FaultInjector(FaultPlan.builder().nth("PutItem", 3, Fault.failBefore()).build());
        DynamoDbClient dynamo = faults.wrap(local.dynamo());

        List<Integer> failed = IntStream.rangeClosed(1, 5).filter(i -> {
            try {
                dynamo.putItem(FaultTables.put(table, "s-" + i, 0));
                return false;
            } catch (SdkClientException e) {
                return true;
            }
        }).boxed().toList();

        assertThat(failed).containsExactly(3);
        assertThat(IntStream.rangeClosed(1, 5).filter(i -> FaultTables.get(local.dynamo(), table, "s-" + i, 0).isEmpty()))
                .containsExactly(3);
        assertThat(faults.calls("PutItem")).isEqualTo(5);
        assertThat(faults.summary()).isEqualTo("faults injected: 1 (FailBefore 1) in 5 calls");
    }

    @Test
    void request_predicate_faults_only_the_matching_table(LocalDynamo local) {
        String faulty = FaultTables.create(local, false);
        String healthy = FaultTables.create(local, false);
        FaultInjector faults = new FaultInjector(FaultPlan.builder()
                .when(PutItemRequest.class, r -> r.tableName().equals(faulty), Fault.throttle()).build());
        DynamoDbClient dynamo = faults.wrap(local.dynamo());

        dynamo.putItem(FaultTables.put(healthy, "s-1", 0));
        assertThatThrownBy(() -> dynamo.putItem(FaultTables.put(faulty, "s-1", 0)))
                .isInstanceOf(ProvisionedThroughputExceededException.class);

        assertThat(FaultTables.get(local.dynamo(), healthy, "s-1", 0)).isNotEmpty();
        assertThat(faults.injected()).containsExactly(new InjectedFault("PutItem", 2, Fault.throttle()));
    }

    @Test
    void consumer_builder_overloads_count_once_and_go_through_the_plan(LocalDynamo local) {
        String table = FaultTables.create(local, false);
        FaultInjector faults = new FaultInjector(FaultPlan.builder().nth("PutItem", 2, Fault.failBefore()).build());
        DynamoDbClient dynamo = faults.wrap(local.dynamo());

        dynamo.putItem(b -> b.tableName(table).item(FaultTables.key("s-1", 0)));
        assertThatThrownBy(() -> dynamo.putItem(b -> b.tableName(table).item(FaultTables.key("s-2", 0))))
                .isInstanceOf(SdkClientException.class);

        assertThat(faults.calls("PutItem")).isEqualTo(2);
        assertThat(FaultTables.get(local.dynamo(), table, "s-2", 0)).isEmpty();
    }

    @Test
    void paginator_pages_go_through_the_wrapper(LocalDynamo local) {
        String table = FaultTables.create(local, false);
        IntStream.range(0, 3).forEach(i -> local.dynamo().putItem(FaultTables.put(table, "s-1", i)));
        FaultInjector faults = new FaultInjector(FaultPlan.builder().nth("Query", 3, Fault.throttle()).build());
        DynamoDbClient dynamo = faults.wrap(local.dynamo());
        var pages = dynamo.queryPaginator(b -> b.tableName(table).limit(1).keyConditionExpression("p = :p")
                .expressionAttributeValues(Map.of(":p", AttributeValue.fromS("s-1")))).iterator();

        QueryResponse first = pages.next();
        QueryResponse second = pages.next();

        assertThat(first.items()).hasSize(1);
        assertThat(second.items()).hasSize(1);
        assertThatThrownBy(pages::next).isInstanceOf(ProvisionedThroughputExceededException.class);
        assertThat(faults.calls("Query")).isEqualTo(3);
    }

    @Test
    void waiter_polls_through_the_wrapper(LocalDynamo local) {
        String table = FaultTables.create(local, false);
        FaultInjector faults = new FaultInjector(FaultPlan.none());

        var outcome = faults.wrap(local.dynamo()).waiter().waitUntilTableExists(b -> b.tableName(table));

        assertThat(outcome.matched().response()).hasValueSatisfying(r -> assertThat(r.table().tableName()).isEqualTo(table));
        assertThat(faults.calls("DescribeTable")).isPositive();
    }

    @Test
    void close_closes_the_real_client_and_service_name_passes_through(LocalDynamo local) {
        DynamoDbClient real = DynamoClients.dynamoDb(local.settings());
        DynamoDbClient wrapped = new FaultInjector(FaultPlan.none()).wrap(real);

        assertThat(wrapped.serviceName()).isEqualTo(real.serviceName());
        assertThat(wrapped.listTables().tableNames()).isNotNull();
        wrapped.close();

        // a closed client refuses work (which exception depends on its timeout settings); an open one would answer
        assertThatThrownBy(real::listTables).isInstanceOf(RuntimeException.class);
    }
}

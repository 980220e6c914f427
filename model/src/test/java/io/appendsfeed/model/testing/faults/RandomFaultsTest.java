package io.appendsfeed.model.testing.faults;

import static org.assertj.core.api.Assertions.assertThat;

import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

@ExtendWith(LocalDynamoExtension.class)
class RandomFaultsTest {

    private static final long SEED = 7;
    private static final int ITEMS = 20;

    @Test
    void a_caller_that_retries_max_consecutive_times_writes_everything_and_the_seed_replays_the_faults(LocalDynamo local) {
        FaultPlan plan = FaultPlan.random(SEED, 0.7, List.of(Fault.failBefore(), Fault.failAfter(), Fault.throttle()),
                Set.of("PutItem"));

        FaultInjector first = writeWithRetries(local, plan);
        FaultInjector replay = writeWithRetries(local, plan);

        System.out.println("seed " + SEED + ": " + first.summary());
        assertThat(first.injected()).isNotEmpty().isEqualTo(replay.injected());
        assertThat(first.countsByKind()).containsOnlyKeys("FailBefore", "FailAfter", "Throttle");
    }

    /** Unconditional puts, so retrying after an ambiguous timeout is safe. */
    private static FaultInjector writeWithRetries(LocalDynamo local, FaultPlan plan) {
        String table = FaultTables.create(local, false);
        FaultInjector faults = new FaultInjector(plan);
        DynamoDbClient dynamo = faults.wrap(local.dynamo());
        for (int i = 0; i < ITEMS; i++) {
            putRetrying(dynamo, table, i, RandomFaults.DEFAULT_MAX_CONSECUTIVE);
        }
        assertThat(IntStream.range(0, ITEMS).filter(i -> FaultTables.get(local.dynamo(), table, "s-" + i, 0).isEmpty()))
                .isEmpty();
        return faults;
    }

    private static void putRetrying(DynamoDbClient dynamo, String table, int i, int retries) {
        try {
            dynamo.putItem(FaultTables.put(table, "s-" + i, 0));
        } catch (SdkException e) {
            if (retries == 0) {
                throw new AssertionError("put s-" + i + " still failing after the bounded number of faults", e);
            }
            putRetrying(dynamo, table, i, retries - 1);
        }
    }
}

package io.appendsfeed.reader;

import static org.assertj.core.api.Assertions.assertThat;

import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.store.StoreTables;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import io.appendsfeed.reader.LeaseStore.Lease;

/**
 * Two instances taking the lease of a partition whose checkpoint stream does not exist yet, at the
 * same moment (as two Lambda invocations of a new group do): exactly one gets it.
 */
@ExtendWith(LocalDynamoExtension.class)
class LeaseRaceTest {

    @Test
    void two_instances_taking_a_fresh_partitions_lease_at_once_exactly_one_gets_it(LocalDynamo local) throws Exception {
        String index = local.freshTableName("index");
        StoreTables.ensure(local.dynamo(), index, null);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            for (int round = 0; round < 20; round++) {
                String group = "race-" + round;
                CyclicBarrier start = new CyclicBarrier(2);
                List<Future<Optional<Lease>>> results = new ArrayList<>();
                for (String owner : List.of("a", "b")) {
                    DynamoCheckpointStore store = new DynamoCheckpointStore(local.dynamo(), index, Clock.systemUTC());
                    results.add(pool.submit(() -> {
                        start.await(10, TimeUnit.SECONDS);
                        return store.tryAcquire(group, PartitionId.ZERO, owner, Duration.ofSeconds(30));
                    }));
                }
                List<Lease> got = new ArrayList<>();
                for (Future<Optional<Lease>> r : results) {
                    r.get(30, TimeUnit.SECONDS).ifPresent(got::add);
                }
                assertThat(got).as("round " + round).hasSize(1);
                Lease current = new DynamoCheckpointStore(local.dynamo(), index, Clock.systemUTC()).current(group, PartitionId.ZERO).orElseThrow();
                assertThat(current.token()).isEqualTo(got.get(0).token());
            }
        } finally {
            pool.shutdownNow();
        }
    }
}

package io.appendsfeed.model.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link Expected#absent()}: a first write of a stream kept as unfolds only (its version stays 0) is
 * exclusive, where {@code noStream()} (version 0) is also satisfied by a Tip holding only unfolds.
 */
@ExtendWith(LocalDynamoExtension.class)
class AbsentExpectationTest {

    private static final StreamName STREAM = StreamName.parse("$Lease-1");

    @Test
    void absent_conflicts_with_a_tip_of_unfolds_only_where_version_zero_does_not(LocalDynamo local) {
        StoreFixture f = StoreFixture.fresh(local);
        StoreClient client = reserved(f);
        assertThat(client.writeUnfolds(STREAM, Expected.absent(), List.of(Unfold.json("Lease", "{\"owner\":\"a\"}"))))
                .isInstanceOf(AppendResult.Written.class);
        assertThat(client.writeUnfolds(STREAM, Expected.absent(), List.of(Unfold.json("Lease", "{\"owner\":\"b\"}"))))
                .isInstanceOf(AppendResult.Conflict.class);
        assertThat(reserved(f).writeUnfolds(STREAM, Expected.absent(), List.of(Unfold.json("Lease", "{\"owner\":\"c\"}"))))
                .as("a client that never saw the Tip").isInstanceOf(AppendResult.Conflict.class);
        assertThat(new String(client.readTip(STREAM, true).orElseThrow().unfolds().get(0).data(), StandardCharsets.UTF_8)).contains("\"a\"");
        // unchanged: version 0 is satisfied by the unfolds-only Tip
        assertThat(reserved(f).writeUnfolds(STREAM, Expected.noStream(), List.of(Unfold.json("Lease", "{\"owner\":\"d\"}"))))
                .isInstanceOf(AppendResult.Written.class);
    }

    @RepeatedTest(5)
    void two_writers_creating_an_unfolds_only_stream_with_absent_exactly_one_wins(LocalDynamo local) throws Exception {
        StoreFixture f = StoreFixture.fresh(local);
        CyclicBarrier start = new CyclicBarrier(2);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<AppendResult>> results = new ArrayList<>();
            for (String owner : List.of("a", "b")) {
                StoreClient client = reserved(f);
                results.add(pool.submit(() -> {
                    start.await(10, TimeUnit.SECONDS);
                    return client.writeUnfolds(STREAM, Expected.absent(), List.of(Unfold.json("Lease", "{\"owner\":\"" + owner + "\"}")));
                }));
            }
            long won = 0;
            for (Future<AppendResult> r : results) {
                won += r.get(30, TimeUnit.SECONDS) instanceof AppendResult.Written ? 1 : 0;
            }
            assertThat(won).isEqualTo(1);
        } finally {
            pool.shutdownNow();
        }
    }

    private static StoreClient reserved(StoreFixture f) {
        return new StoreClient(f.local.dynamo(), StoreConfig.builder(f.table).reservedStreams(true).build());
    }
}

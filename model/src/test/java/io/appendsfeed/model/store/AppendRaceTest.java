package io.appendsfeed.model.store;

import static io.appendsfeed.model.store.StoreFixture.events;
import static org.assertj.core.api.Assertions.assertThat;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.extension.ExtendWith;

/** Two writers, each with its own client, append to one stream at the same expected version at once. */
@ExtendWith(LocalDynamoExtension.class)
class AppendRaceTest {

    private static final StreamName STREAM = StreamName.parse("Race-1");

    @RepeatedTest(3)
    void two_writers_updating_the_tip_exactly_one_wins(LocalDynamo local) throws Exception {
        StoreFixture f = StoreFixture.fresh(local);
        f.client().append(STREAM, Expected.noStream(), events("Seed", 1));

        List<AppendResult> results = race(f, c -> c, Expected.version(1));

        assertOneWonAndTheOtherSawIt(f, results, false);
    }

    @RepeatedTest(3)
    void two_writers_calving_the_tip_exactly_one_wins(LocalDynamo local) throws Exception {
        StoreFixture f = StoreFixture.fresh(local);
        f.client().append(STREAM, Expected.noStream(), events("Seed", 1));

        List<AppendResult> results = race(f, c -> c.tipMaxEvents(1), Expected.version(1));

        assertOneWonAndTheOtherSawIt(f, results, true);
        assertThat(f.items(STREAM)).hasSize(2); // one calf, one Tip
    }

    @RepeatedTest(3)
    void two_writers_creating_a_stream_exactly_one_wins(LocalDynamo local) throws Exception {
        StoreFixture f = StoreFixture.fresh(local);

        List<AppendResult> results = race(f, c -> c, Expected.noStream());

        List<AppendResult.Written> won = results.stream().filter(r -> r instanceof AppendResult.Written).map(r -> (AppendResult.Written) r).toList();
        List<AppendResult.Conflict> lost = results.stream().filter(r -> r instanceof AppendResult.Conflict).map(r -> (AppendResult.Conflict) r).toList();
        assertThat(won).hasSize(1);
        assertThat(lost).containsExactly(new AppendResult.Conflict(2, won.get(0).etag()));
    }

    private static void assertOneWonAndTheOtherSawIt(StoreFixture f, List<AppendResult> results, boolean calved) {
        List<AppendResult.Written> won = results.stream().filter(r -> r instanceof AppendResult.Written).map(r -> (AppendResult.Written) r).toList();
        List<AppendResult.Conflict> lost = results.stream().filter(r -> r instanceof AppendResult.Conflict).map(r -> (AppendResult.Conflict) r).toList();
        assertThat(won).hasSize(1);
        assertThat(won.get(0).version()).isEqualTo(3);
        assertThat(won.get(0).calved()).isEqualTo(calved);
        assertThat(lost).containsExactly(new AppendResult.Conflict(3, won.get(0).etag()));
        StoreClient reader = f.client();
        assertThat(reader.readAll(STREAM, Read.forward(0).strongly())).extracting(StoredEvent::index).containsExactly(0L, 1L, 2L);
        assertThat(reader.readTip(STREAM, true).orElseThrow().etag()).isEqualTo(won.get(0).etag());
    }

    /** Both writers know the Tip (their caches are warm), then start together on a latch. */
    private static List<AppendResult> race(StoreFixture f, java.util.function.UnaryOperator<StoreConfig.Builder> config,
                                           Expected expected) throws Exception {
        List<StoreClient> writers = List.of(f.client(config), f.client(config));
        for (StoreClient w : writers) {
            w.readTip(STREAM, true);
        }
        CountDownLatch ready = new CountDownLatch(2);
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<AppendResult>> futures = new ArrayList<>();
            for (int k = 0; k < 2; k++) {
                StoreClient w = writers.get(k);
                String who = "W" + k;
                futures.add(pool.submit(() -> {
                    ready.countDown();
                    go.await();
                    return w.append(STREAM, expected, events(who, 2));
                }));
            }
            ready.await();
            go.countDown();
            List<AppendResult> results = new ArrayList<>();
            for (Future<AppendResult> fu : futures) {
                results.add(fu.get(30, TimeUnit.SECONDS));
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }
}

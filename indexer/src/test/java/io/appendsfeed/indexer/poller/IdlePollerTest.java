package io.appendsfeed.indexer.poller;

import static org.assertj.core.api.Assertions.assertThat;

import io.appendsfeed.indexer.Indexer;
import io.appendsfeed.indexer.IndexerConfig;
import io.appendsfeed.indexer.IndexerTables;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(LocalDynamoExtension.class)
class IdlePollerTest {

    /** Past the point where an uncapped doubling from 20 ms overflows {@code Duration} (about 69 empty polls). */
    static final int IDLE_POLLS = 120;

    @Test
    void an_idle_poller_waits_the_idle_wait_between_polls_for_as_long_as_it_stays_idle(LocalDynamo local) {
        String storeTable = IndexerTables.store(local);
        String indexTable = IndexerTables.index(local);
        Indexer indexer = Indexer.start(local.dynamo(), IndexerConfig.builder(indexTable).build());
        Duration idleWait = Duration.ofMillis(200);
        PollerConfig cfg = PollerConfig.of(storeTable).withIdleWait(idleWait);
        List<Duration> waits = new ArrayList<>();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream realErr = System.err;
        try (StreamsPoller poller = new StreamsPoller(local.dynamo(), local.streams(), indexer, cfg)) {
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8)); // slf4j-simple writes to System.err as it is now
            for (int k = 0; k < IDLE_POLLS; k++) {
                waits.add(poller.pollAndWait());
            }
        } finally {
            System.setErr(realErr);
        }

        assertThat(waits).hasSize(IDLE_POLLS);
        assertThat(waits.subList(0, 5)).containsExactly(Duration.ofMillis(20), Duration.ofMillis(40),
                Duration.ofMillis(80), Duration.ofMillis(160), idleWait);
        assertThat(waits).allSatisfy(w -> assertThat(w).isLessThanOrEqualTo(idleWait));
        assertThat(waits.subList(4, IDLE_POLLS)).containsOnly(idleWait);
        assertThat(err.toString(StandardCharsets.UTF_8).lines().filter(l -> l.contains("WARN")))
                .as("no poll failed").isEmpty();
    }

    @Test
    void an_idle_wait_below_the_first_wait_is_kept_from_the_first_poll(LocalDynamo local) {
        String storeTable = IndexerTables.store(local);
        String indexTable = IndexerTables.index(local);
        Indexer indexer = Indexer.start(local.dynamo(), IndexerConfig.builder(indexTable).build());
        Duration idleWait = Duration.ofMillis(5);
        List<Duration> waits = new ArrayList<>();
        try (StreamsPoller poller = new StreamsPoller(local.dynamo(), local.streams(), indexer,
                PollerConfig.of(storeTable).withIdleWait(idleWait))) {
            for (int k = 0; k < 10; k++) {
                waits.add(poller.pollAndWait());
            }
        }
        assertThat(waits).hasSize(10).containsOnly(idleWait);
    }
}

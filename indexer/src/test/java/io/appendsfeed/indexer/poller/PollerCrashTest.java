package io.appendsfeed.indexer.poller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.appendsfeed.indexer.Indexer;
import io.appendsfeed.indexer.IndexerConfig;
import io.appendsfeed.indexer.IndexerTables;
import io.appendsfeed.indexer.poller.internal.ShardPositions;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.AppendResult;
import io.appendsfeed.model.store.EventData;
import io.appendsfeed.model.store.Expected;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import io.appendsfeed.indexer.cli.FeedCli;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The poller as a process: each "life" is a {@link PollerProcess} in a JVM of its own, against this
 * JVM's DynamoDB Local over HTTP, while a writer appends without pause. Life n loses one write (the
 * k-th it sends: its lease, an epoch write, a position save; lost before it is sent, or landed with
 * its answer lost; k and the kind go round every write position in turn), saves progress after it,
 * and is then killed with {@code kill -9} just after life n+1 was launched as its standby, which
 * takes over once the dead one's lease expires. After the last kill a clean poller catches up, and
 * {@code feed verify} must find every stored event in the feed exactly once, in order.
 *
 * <p>Four lives by default (about half a minute on a shared 2-core machine): the lease's write and a
 * batch's first epoch write, each lost before and after, so that both tables see both kinds; 8 lives
 * go round every write position. A longer soak, opt-in, with the
 * writer slowed so that DynamoDB Local keeps up: {@code mvn -B -o -pl indexer -am test -Dtest=PollerCrashTest
 * -Dsurefire.failIfNoSpecifiedTests=false -Dpoller.crash.lives=40 -Dpoller.crash.appendEveryMillis=40}.
 */
@ExtendWith(LocalDynamoExtension.class)
class PollerCrashTest {

    private static final int LIVES = Integer.getInteger("poller.crash.lives", 4);
    private static final int PARTITIONS = 2;
    private static final int STREAMS = 100;
    /** Write positions gone round: 1 is the lease, then a batch's epoch writes and its position save. */
    private static final int WRITE_POSITIONS = 4;
    private static final Duration LEASE = Duration.ofSeconds(2);
    /** The writer's pace; a long soak wants it slower: DynamoDB Local stalls once its streams hold tens of thousands of records. */
    private static final Duration APPEND_EVERY = Duration.ofMillis(Long.getLong("poller.crash.appendEveryMillis", 10));
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One poller process: its output lines as they come, its log in a file. */
    record Life(int number, String owner, Process process, List<String> stdout, Path log) {
        String line(String prefix) {
            return stdout.stream().filter(l -> l.startsWith(prefix)).findFirst().orElse(null);
        }
    }

    @Test
    void pollers_killed_mid_run_with_a_lost_write_at_every_position_leave_every_event_once_in_order(LocalDynamo local) throws Exception {
        String storeTable = IndexerTables.store(local);
        String indexTable = IndexerTables.index(local);
        Path dir = Files.createDirectories(Path.of("target", "poller-crash", storeTable)); // the pollers' logs, kept for a look after a failure
        Indexer.start(local.dynamo(), IndexerConfig.builder(indexTable).partitions(PARTITIONS).build());
        StoreClient store = new StoreClient(local.dynamo(), StoreConfig.builder(storeTable).build());
        List<Life> lives = new ArrayList<>();
        long start = System.nanoTime();
        Writer writer = new Writer(store, new Random(LIVES));
        try {
            Life current = launch(local, storeTable, indexTable, dir, 1, true);
            lives.add(current);
            for (int n = 1; n <= LIVES; n++) {
                Life life = current;
                await("life " + n + " injects its fault").atMost(Duration.ofSeconds(60)).until(() -> life.line("FAULT") != null);
                // its successor starts now, as a standby, so that its JVM is up by the time it is needed
                current = launch(local, storeTable, indexTable, dir, n + 1, n < LIVES);
                lives.add(current);
                for (int saves = 0; saves < 1 + n % 2; saves++) {
                    ShardPositions.Saved before = item(local, indexTable, storeTable);
                    await("progress after life " + n + "'s fault").atMost(Duration.ofSeconds(60))
                            .until(() -> !item(local, indexTable, storeTable).positions().equals(before.positions()));
                }
                System.out.printf("life %d: %s, killed at %.1f s%n", n, life.line("FAULT"), (System.nanoTime() - start) / 1e9);
                life.process().destroyForcibly();
                assertThat(life.process().waitFor(30, TimeUnit.SECONDS)).as("killed").isTrue();
            }
            writer.close();
            StringWriter report = new StringWriter();
            await("the feed verifies clean").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofSeconds(1)).untilAsserted(() -> {
                report.getBuffer().setLength(0);
                StringWriter err = new StringWriter();
                int exit = FeedCli.commandLine(Map.of("APPENDS_DYNAMODB_ENDPOINT", local.endpoint().toString(),
                        "APPENDS_STORE_TABLE", storeTable, "APPENDS_INDEX_TABLE", indexTable)::get,
                        new PrintWriter(report, true), new PrintWriter(err, true)).execute("verify", "--json");
                assertThat(exit).as("feed verify: %s %s", report, err).isZero();
            });
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            Life last = current;
            last.process().getOutputStream().close();
            assertThat(last.process().waitFor(30, TimeUnit.SECONDS)).as("the last poller stops when asked").isTrue();
            assertThat(last.line("STOPPED")).isNotNull();
            check(JSON.readTree(report.toString()), writer, lives, took);
        } finally {
            writer.close();
            lives.forEach(l -> l.process().destroyForcibly());
        }
    }

    private static void check(JsonNode verified, Writer writer, List<Life> lives, Duration took) throws IOException {
        long appended = writer.appended.get();
        assertThat(verified.path("ok").asBoolean()).isTrue();
        assertThat(verified.path("store").path("events").asLong()).as("every append is in the store").isEqualTo(appended);
        assertThat(verified.path("index").path("events").asLong()).as("each once in the feed").isEqualTo(appended);
        assertThat(writer.errors).isEmpty();
        Set<String> hit = new TreeSet<>();
        for (Life life : lives.subList(0, LIVES)) {
            String fault = life.line("FAULT");
            assertThat(fault).as("life %d injected its fault", life.number()).isNotNull();
            hit.add(fault.split(" ")[3].replaceAll("-.*", "") + " " + fault.split(" ")[4]);
        }
        assertThat(hit).as("lost writes of epochs and of positions, both kinds")
                .contains("$AppendsEpoch before", "$AppendsEpoch after", "$AppendsPoller before", "$AppendsPoller after");
        long[] figures = figures(lives);
        System.out.printf("poller crash test: %d kills (kill -9), %d lost writes %s, %d events appended by the writer, %d in the feed"
                        + " once each (verify clean); the pollers read %d records in all, the indexer dropped %d events it already"
                        + " held; %.1f s%n", LIVES, LIVES, hit, appended, verified.path("index").path("events").asLong(),
                figures[0], figures[1], took.toMillis() / 1000.0);
    }

    private static Life launch(LocalDynamo local, String storeTable, String indexTable, Path dir, int n, boolean fault)
            throws IOException {
        String owner = "life-" + n;
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                PollerProcess.class.getName(), local.endpoint().toString(), storeTable, indexTable, Integer.toString(PARTITIONS),
                owner, Long.toString(LEASE.toMillis())));
        if (fault) {
            int k = (n - 1) / 2 % WRITE_POSITIONS + 1;
            // the second pair loses the first epoch write whichever write it is (a lease renewal or a
            // position save may come before it on a loaded machine); the others the k-th write
            command.add(k == 2 ? "$AppendsEpoch-" : Integer.toString(k));
            command.add(n % 2 == 1 ? "before" : "after");
        }
        Path log = dir.resolve(owner + ".log");
        Process p = new ProcessBuilder(command).redirectError(log.toFile()).start();
        List<String> lines = new CopyOnWriteArrayList<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = r.readLine(); line != null; line = r.readLine()) {
                    lines.add(line);
                }
            } catch (IOException e) {
                lines.add("READ FAILED " + e);
            }
        }, "stdout-" + owner);
        reader.setDaemon(true);
        reader.start();
        return new Life(n, owner, p, lines, log);
    }

    private static ShardPositions.Saved item(LocalDynamo local, String indexTable, String storeTable) {
        StoreClient index = new StoreClient(local.dynamo(), StoreConfig.builder(indexTable).reservedStreams(true).build());
        return ShardPositions.read(index, storeTable);
    }

    /** Records the pollers read, and events the indexer dropped as already held, from their logs' batch lines. */
    private static long[] figures(List<Life> lives) throws IOException {
        Pattern batch = Pattern.compile("batch: (\\d+) records");
        Pattern duplicates = Pattern.compile("(\\d+) duplicates");
        long records = 0;
        long dropped = 0;
        for (Life life : lives) {
            for (String line : Files.readAllLines(life.log())) {
                Matcher b = batch.matcher(line);
                if (b.find()) {
                    records += Long.parseLong(b.group(1));
                    Matcher d = duplicates.matcher(line);
                    while (d.find()) {
                        dropped += Long.parseLong(d.group(1));
                    }
                }
            }
        }
        return new long[] {records, dropped};
    }

    /** Appends 1 to 3 events to a random stream every few milliseconds, until closed. */
    private static final class Writer implements AutoCloseable {
        final AtomicLong appended = new AtomicLong();
        final List<RuntimeException> errors = Collections.synchronizedList(new ArrayList<>());
        private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor();

        Writer(StoreClient store, Random random) {
            executor.scheduleAtFixedRate(() -> {
                StreamName stream = StreamName.of("Order", Integer.toString(random.nextInt(STREAMS)));
                List<EventData> events = new ArrayList<>();
                for (int e = random.nextInt(3); e >= 0; e--) {
                    events.add(EventData.json("Placed", "{\"n\":" + e + "}"));
                }
                try {
                    if (store.append(stream, Expected.any(), events) instanceof AppendResult.Written) {
                        appended.addAndGet(events.size());
                    } else {
                        errors.add(new IllegalStateException("append to " + stream + " conflicted"));
                    }
                } catch (RuntimeException e) {
                    errors.add(e);
                }
            }, 0, APPEND_EVERY.toMillis(), TimeUnit.MILLISECONDS);
        }

        /** Stops appending; the appends in flight finish first. */
        @Override
        public void close() throws InterruptedException {
            executor.shutdown();
            if (!executor.awaitTermination(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the writer did not stop within 30 s");
            }
        }
    }
}

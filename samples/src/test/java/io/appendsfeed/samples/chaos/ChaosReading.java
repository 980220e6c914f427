package io.appendsfeed.samples.chaos;

import static org.awaitility.Awaitility.await;

import io.appendsfeed.model.testing.faults.Fault;
import io.appendsfeed.model.testing.faults.FaultInjector;
import io.appendsfeed.model.testing.faults.FaultPlan;
import io.appendsfeed.reader.FeedReader.CatchUpResult;
import io.appendsfeed.reader.FeedReader;
import io.appendsfeed.reader.FeedReaderConfig;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.awaitility.core.ConditionTimeoutException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Readers of one group through a faulty client: the first crashes before committing (every call
 * fails from a point on, then it is closed: its final commit cannot land) once the projection has
 * applied a given number of events; a second resumes from whatever was committed and must catch up
 * under faults; if the faults keep it from catching up in time, a third runs with faults off.
 * A watcher observes the checkpoints throughout.
 */
final class ChaosReading {

    private static final Duration CATCH_UP = Duration.ofSeconds(20);
    private static final FaultPlan DEAD = call -> Optional.of(Fault.failBefore());

    private final FaultInjector faults;
    private final DynamoDbClient faulty;
    private final FeedReaderConfig config;
    private final CheckpointWatch watch;
    boolean crashed;
    boolean heldBack;
    /** Calls failed by the crash itself: not counted as injected faults in the report. */
    int crashFaults;
    boolean neededCleanRun;

    ChaosReading(FaultInjector faults, DynamoDbClient faulty, FeedReaderConfig config, CheckpointWatch watch) {
        this.faults = faults;
        this.faulty = faulty;
        this.config = config;
        this.watch = watch;
    }

    /** Returns the final catch-up result. */
    CatchUpResult run(Projection projection, int crashAfter, FaultPlan plan) {
        ScheduledExecutorService watcher = Executors.newSingleThreadScheduledExecutor();
        watcher.scheduleWithFixedDelay(watch::observe, 0, 15, TimeUnit.MILLISECONDS);
        try {
            FeedReader first = new FeedReader(faulty, config, projection);
            first.start();
            try {
                await().pollInterval(Duration.ofMillis(5)).atMost(Duration.ofSeconds(10))
                        .until(() -> projection.appliedEvents() >= crashAfter);
            } catch (ConditionTimeoutException e) {
                heldBack = true; // the faults held it back: it crashes where it got to, as good a point as any
            }
            int before = faults.injected().size();
            faults.replacePlan(DEAD);
            first.close();
            crashed = true;
            faults.replacePlan(plan);
            crashFaults = faults.injected().size() - before;
            CatchUpResult r = new FeedReader(faulty, config, projection).runUntilCaughtUp(CATCH_UP);
            if (!r.caughtUp()) {
                neededCleanRun = true;
                faults.replacePlan(FaultPlan.none());
                r = new FeedReader(faulty, config, projection).runUntilCaughtUp(CATCH_UP);
            }
            return r;
        } finally {
            watcher.shutdownNow();
            watch.observe();
        }
    }
}

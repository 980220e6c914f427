package io.appendsfeed.reader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.Partitioner;
import io.appendsfeed.model.metrics.MicrometerMetrics;
import io.appendsfeed.model.testing.EmfCapture;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.BasicMdc;
import org.slf4j.MDC;
import io.appendsfeed.reader.StreamHandler.HandlerResult;
import io.appendsfeed.reader.StreamHandler.FeedEvent;

/** The reader's figures against what a real reader on DynamoDB Local did. */
@ExtendWith(LocalDynamoExtension.class)
class ReaderMetricsTest {

    @Test
    void handler_calls_failures_parks_lag_and_capacity_in_a_micrometer_registry(LocalDynamo local) {
        BasicMdc.install(); // what logback or log4j2 do; slf4j-simple, the tests' binding, keeps no MDC
        FeedFixture f = new FeedFixture(local, 2);
        String a = f.streamIn("Account", 0, 0);
        String b = f.streamIn("Account", 1, 0);
        String poison = f.streamIn("Order", 1, 0);
        f.ingest(f.write(a, "Opened"), f.write(b, "Opened"), f.write(poison, "Placed"));
        f.ingest(f.write(a, "Changed", "Changed"), f.write(b, "Changed"));
        Map<String, String> seen = new ConcurrentHashMap<>();
        Recorder handler = new Recorder() {
            @Override
            HandlerResult apply(StreamName stream, List<FeedEvent> events) {
                seen.put(stream.value(), MDC.get("group") + "/" + MDC.get("partition") + "/" + MDC.get("stream"));
                if (stream.value().equals(poison)) {
                    throw new IllegalStateException("cannot price " + events.get(0));
                }
                return HandlerResult.handled();
            }
        };
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        FeedReaderConfig config = f.config("billing").parkAfterAttempts(3).lagLogInterval(Duration.ofMillis(100))
                .metrics(new MicrometerMetrics(registry)).build();
        try (FeedReader reader = new FeedReader(local.dynamo(), config, handler)) {
            reader.start();
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
                assertThat(reader.parked()).hasSize(1);
                assertThat(gauge(registry, "appendsfeed.reader.lag.events", "0")).isEqualTo(0);
                assertThat(gauge(registry, "appendsfeed.reader.lag.events", "1")).isEqualTo(0);
                assertThat(registry.find("appendsfeed.reader.parked").tag("group", "billing").gauge()).isNotNull()
                        .satisfies(g -> assertThat(g.value()).isEqualTo(1));
            });
        }
        assertThat(count(registry, "appendsfeed.reader.events.handled", "0")).isEqualTo(handler.indices(a).size()).isEqualTo(3);
        assertThat(count(registry, "appendsfeed.reader.events.handled", "1")).as("the poison stream's events were never applied")
                .isEqualTo(handler.indices(b).size()).isEqualTo(2);
        assertThat(count(registry, "appendsfeed.reader.handler.failures", "1")).isEqualTo(3);
        assertThat(registry.find("appendsfeed.reader.handler.failures").tag("partition", "0").counter()).isNull();
        assertThat(count(registry, "appendsfeed.reader.streams.parked", "1")).isEqualTo(1);
        long calls = handler.calls.values().stream().mapToLong(n -> n.get()).sum();
        double timed = registry.get("appendsfeed.reader.handler.time").timers().stream().mapToLong(t -> t.count()).sum();
        assertThat(timed).as("every call timed, failed ones included").isEqualTo(calls);
        assertThat(registry.get("appendsfeed.reader.handler.time").tag("partition", "1").timer().totalTime(TimeUnit.NANOSECONDS)).isPositive();
        assertThat(registry.get("appendsfeed.reader.rcu").counters().stream().mapToDouble(Counter::count).sum()).isPositive();
        assertThat(gauge(registry, "appendsfeed.reader.lag.age", "0")).isEqualTo(0);
        assertThat(seen).containsEntry(a, "billing/0/" + a).containsEntry(poison, "billing/1/" + poison);
        assertThat(MDC.get("stream")).isNull();
    }

    @Test
    void emf_lines_carry_the_lag_while_a_stream_is_held_up_and_zero_once_it_is_handled(LocalDynamo local) throws Exception {
        FeedFixture f = new FeedFixture(local, 1);
        Instant indexedAt = Instant.parse("2030-01-01T00:00:00Z");
        for (int k = 0; k < 5; k++) {
            f.ingest(indexedAt, f.write("Account-1", "Changed"));
        }
        CountDownLatch release = new CountDownLatch(1);
        Recorder handler = new Recorder() {
            @Override
            HandlerResult apply(StreamName stream, List<FeedEvent> events) throws Exception {
                release.await();
                return HandlerResult.handled();
            }
        };
        EmfCapture emf = new EmfCapture();
        FeedReaderConfig config = f.config("audit").leases(false).lagLogInterval(Duration.ofMillis(100))
                .clock(Clock.fixed(indexedAt.plusSeconds(90), ZoneOffset.UTC)).metrics(emf.metrics()).build();
        try (FeedReader reader = new FeedReader(local.dynamo(), config, handler)) {
            reader.start();
            await().atMost(Duration.ofSeconds(20)).until(() -> emf.linesWith(ReaderMetrics.LAG_EVENTS).stream()
                    .anyMatch(l -> l.get(ReaderMetrics.LAG_EVENTS.name()).asInt() == 5));
            JsonNode held = emf.linesWith(ReaderMetrics.LAG_EVENTS).stream()
                    .filter(l -> l.get(ReaderMetrics.LAG_EVENTS.name()).asInt() == 5).findFirst().orElseThrow();
            assertThat(held.get(ReaderMetrics.LAG_AGE.name()).asLong()).as("indexed 90 s before the clock").isEqualTo(90_000);
            assertThat(held.get("group").asText()).isEqualTo("audit");
            assertThat(held.get("partition").asText()).isEqualTo("0");
            assertThat(held.get("_aws").get("CloudWatchMetrics").get(0).get("Dimensions").toString())
                    .isEqualTo("[[\"group\",\"partition\"],[\"group\"]]");
            release.countDown();
            await().atMost(Duration.ofSeconds(20)).until(() -> handler.indices("Account-1").size() == 5);
        }
        List<JsonNode> lines = emf.linesWith(ReaderMetrics.LAG_EVENTS);
        JsonNode last = lines.get(lines.size() - 1);
        assertThat(last.get(ReaderMetrics.LAG_EVENTS.name()).asInt()).as("the sample taken on close").isZero();
        assertThat(last.get(ReaderMetrics.LAG_AGE.name()).asInt()).isZero();
        assertThat(emf.sum(ReaderMetrics.EVENTS_HANDLED)).isEqualTo(5);
        long calls = handler.calls.values().stream().mapToLong(n -> n.get()).sum();
        assertThat(emf.linesWith(ReaderMetrics.HANDLER_TIME).stream().mapToInt(l -> {
            JsonNode v = l.get(ReaderMetrics.HANDLER_TIME.name());
            return v.isArray() ? v.size() : 1;
        }).sum()).as("one duration per call").isEqualTo((int) calls);
        assertThat(emf.lines()).as("no line without figures").allSatisfy(l -> assertThat(l.get("_aws").get("CloudWatchMetrics").get(0).get("Metrics")).isNotEmpty());
        assertThat(Partitioner.route(StreamName.parse("Account-1"), 1).value()).isZero();
    }

    @Test
    void without_metrics_nothing_is_wrapped_or_sampled(LocalDynamo local) {
        FeedFixture f = new FeedFixture(local, 1);
        f.ingest(f.write("Account-1", "Opened"));
        Recorder handler = new Recorder();
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (FeedReader off = new FeedReader(local.dynamo(), f.config("plain").lagLogInterval(Duration.ofMillis(100)).build(), handler);
             FeedReader on = new FeedReader(local.dynamo(), f.config("measured").lagLogInterval(Duration.ofMillis(100))
                     .metrics(new MicrometerMetrics(registry)).build(), new Recorder())) {
            off.start();
            on.start();
            await().atMost(Duration.ofSeconds(20)).until(() -> handler.indices("Account-1").size() == 1);
            // sampled on the lease ticker's lag step: no thread of its own, in either
            await().atMost(Duration.ofSeconds(20)).until(() -> gauge(registry, "appendsfeed.reader.lag.events", "0") == 0);
            assertThat(Thread.getAllStackTraces().keySet()).extracting(Thread::getName).noneMatch(n -> n.contains("-metrics"));
        }
    }

    private static double gauge(SimpleMeterRegistry registry, String name, String partition) {
        var g = registry.find(name).tag("partition", partition).gauge();
        return g == null ? -1 : g.value();
    }

    private static double count(SimpleMeterRegistry registry, String name, String partition) {
        return registry.get(name).tag("partition", partition).counter().count();
    }
}

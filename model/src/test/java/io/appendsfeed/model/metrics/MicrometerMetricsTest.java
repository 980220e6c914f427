package io.appendsfeed.model.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class MicrometerMetricsTest {

    static final Metric EVENTS = Metric.counter("test.events", Metric.Unit.COUNT, "events");
    static final Metric LAG = Metric.gauge("test.lag", Metric.Unit.MILLISECONDS, "lag");
    static final Metric TIME = Metric.timer("test.time", "time");

    @Test
    void counters_add_up_gauges_hold_the_latest_and_timers_keep_every_duration_per_tag_set() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        MicrometerMetrics metrics = new MicrometerMetrics(registry);
        metrics.record(Sample.at(Instant.EPOCH).dimension("group", "g").dimension("partition", "0")
                .value(EVENTS, 3).value(LAG, 40).value(TIME, 1.5).build());
        metrics.record(Sample.at(Instant.EPOCH).dimension("group", "g").dimension("partition", "0")
                .value(EVENTS, 2).value(LAG, 10).value(TIME, 2.5).build());
        metrics.record(Sample.at(Instant.EPOCH).dimension("group", "g").dimension("partition", "1").value(EVENTS, 7).build());
        metrics.flush();

        assertThat(registry.get("appendsfeed.test.events").tags("group", "g", "partition", "0").counter().count()).isEqualTo(5);
        assertThat(registry.get("appendsfeed.test.events").tags("partition", "1").counter().count()).isEqualTo(7);
        assertThat(registry.get("appendsfeed.test.lag").tags("partition", "0").gauge().value()).isEqualTo(10);
        var timer = registry.get("appendsfeed.test.time").tags("partition", "0").timer();
        assertThat(timer.count()).isEqualTo(2);
        assertThat(timer.totalTime(TimeUnit.MICROSECONDS)).isEqualTo(4000);
        assertThat(timer.max(TimeUnit.MICROSECONDS)).isEqualTo(2500);
        assertThat(registry.get("appendsfeed.test.events").counter().getId().getDescription()).isEqualTo("events");
    }
}

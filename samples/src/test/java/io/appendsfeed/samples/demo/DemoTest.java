package io.appendsfeed.samples.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class DemoTest {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int demo(String... args) {
        return Demo.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void small_run_writes_indexes_handles_agrees_and_exits_0() {
        int code = demo("--events", "400", "--streams", "20", "--writers", "2", "--partitions", "2", "--timeout", "60s");
        String text = out.toString(StandardCharsets.UTF_8);
        assertThat(code).as(text + err.toString(StandardCharsets.UTF_8)).isEqualTo(Demo.AGREE);
        assertThat(text).contains("DynamoDB Local http://localhost:")
                .contains("AGREE: every stream has the same events in each, once, in order")
                .contains("RESULT: OK")
                .containsPattern("written +4\\d\\d events in 20 streams")
                .containsPattern("indexed +4\\d\\d events in 20 streams")
                .containsPattern("audit +4\\d\\d events in 20 streams")
                .containsPattern("balances +4\\d\\d events in 20 streams")
                .contains("$ feed checkpoints --endpoint http://localhost:")
                .contains("GROUP", "CHECKPOINT", "LAG EVENTS", "LAG TIME", "COMMITTED");
        // the feed CLI's view: one line per group and partition, each caught up with the tail (lag 0)
        assertThat(text.lines().filter(l -> l.matches("(audit|notifier|balances) +[01] +0/(\\d+) +0/\\2 +0 +0s +\\S+Z +demo-\\1 .*")))
                .hasSize(6);
        // the metrics section, read back from what the indexer and the readers reported
        java.util.regex.Matcher written = java.util.regex.Pattern.compile("written +(\\d+) events in 20 streams").matcher(text);
        assertThat(written.find()).isTrue();
        assertThat(text).containsPattern("indexer.batch.time +[\\d,]+ \\(mean")
                .containsPattern("indexer.events.accepted +" + written.group(1) + "\n")
                .containsPattern("indexer.events.duplicate +0\n")
                .containsPattern("indexer.wcu +[\\d,]+\n");
        assertThat(text).as("per group and partition: handled, no failures, caught up")
                .containsPattern("reader.events.handled +audit/0 [\\d,]+  audit/1 [\\d,]+  balances/0 [\\d,]+  balances/1 [\\d,]+  notifier/0")
                .containsPattern("reader.lag.events +audit/0 0  audit/1 0  balances/0 0  balances/1 0  notifier/0 0  notifier/1 0\n")
                .doesNotContainPattern("reader.handler.failures .*/[01] [1-9]");
    }

    @Test
    void duration_stops_the_writers_before_the_events_are_reached_and_what_was_written_still_agrees() {
        int code = demo("--events", "1000000", "--streams", "10", "--writers", "2", "--partitions", "1", "--duration", "2s");
        String text = out.toString(StandardCharsets.UTF_8);
        assertThat(code).as(text + err.toString(StandardCharsets.UTF_8)).isEqualTo(Demo.AGREE);
        assertThat(text).contains("RESULT: OK").doesNotContain("1,000,000 events in");
    }

    @Test
    void bad_options_say_what_is_wrong_and_exit_2() {
        assertThat(demo("--events", "5", "--streams", "10")).isEqualTo(Demo.FAILED);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--events (5) must be at least --streams (10)").contains("Usage:");
        assertThat(demo("--duration", "soon")).isEqualTo(Demo.FAILED);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("'soon' is not a duration");
    }
}

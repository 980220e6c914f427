package io.appendsfeed.indexer.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code feed kcl}'s metrics options, as a user types them (the worker itself cannot run on DynamoDB Local). */
class KclMetricsOptionsTest {

    record Run(int exit, String out, String err) {}

    @Test
    void help_lists_the_metrics_options_with_their_variables() {
        Run r = feed("kcl", "--help");

        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("--metrics=on|off", "APPENDS_METRICS", "POWERTOOLS_METRICS_DISABLED",
                "--metrics-namespace=NAMESPACE", "POWERTOOLS_METRICS_NAMESPACE", "--service-name=NAME", "POWERTOOLS_SERVICE_NAME");
    }

    @Test
    void a_metrics_value_other_than_on_or_off_is_one_line_naming_the_option() {
        Run r = feed("kcl", "--store-table", "orders-store", "--index-table", "orders-index", "--metrics", "sometimes");

        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err().lines().toList()).singleElement().asString().contains("--metrics", "sometimes", "on, off");
    }

    private static Run feed(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CliContext ctx = new CliContext(Map.<String, String>of()::get, new PrintWriter(out, true), new PrintWriter(err, true),
                Clock.systemUTC());
        int exit = FeedCli.commandLine(ctx).execute(args);
        return new Run(exit, out.toString(), err.toString());
    }
}

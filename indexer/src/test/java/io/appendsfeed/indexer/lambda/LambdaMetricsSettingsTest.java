package io.appendsfeed.indexer.lambda;

import io.appendsfeed.indexer.settings.IndexerSettings;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.appendsfeed.indexer.IndexerMetrics;
import io.appendsfeed.indexer.IndexerTables;
import io.appendsfeed.indexer.settings.MetricsSettings;
import io.appendsfeed.model.metrics.EmfMetrics;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The metrics settings, Powertools' names and ours, as the function built by Lambda writes its EMF lines to stdout. */
@ExtendWith(LocalDynamoExtension.class)
class LambdaMetricsSettingsTest {

    /** The EMF lines the template's handler writes to stdout for one batch, built from {@code vars} as Lambda builds it. */
    static List<JsonNode> emfLinesOfOneBatch(LocalDynamo local, Map<String, String> vars) {
        Map<String, String> env = new HashMap<>(vars);
        env.put(IndexerSettings.INDEX_TABLE, IndexerTables.index(local));
        env.put(IndexerSettings.STORE_TABLE, "store"); // the fixture's records come from table "store"
        env.put(IndexerSettings.ENDPOINT, local.endpoint().toString());
        IndexerStreamHandler handler = new IndexerStreamHandler(LambdaSettings.from(env::get));
        PrintStream stdout = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            assertThat(IndexerStreamHandlerTest.failures(handler, IndexerStreamHandlerTest.resource("two-appends-and-noise.json")))
                    .as("the batch is in the feed, metrics or not").isEmpty();
        } finally {
            System.setOut(stdout);
        }
        List<JsonNode> emf = new ArrayList<>();
        for (String line : captured.toString(StandardCharsets.UTF_8).split("\n")) {
            if (line.startsWith("{") && line.contains("\"_aws\"")) {
                try {
                    emf.add(new ObjectMapper().readTree(line));
                } catch (IOException e) {
                    throw new UncheckedIOException(line, e);
                }
            }
        }
        return emf;
    }

    static JsonNode directive(JsonNode line) {
        return line.get("_aws").get("CloudWatchMetrics").get(0);
    }

    @Test
    void powertools_namespace_and_service_name_set_the_namespace_and_a_service_dimension(LocalDynamo local) {
        List<JsonNode> lines = emfLinesOfOneBatch(local, Map.of(
                MetricsSettings.POWERTOOLS_NAMESPACE, "orders", MetricsSettings.POWERTOOLS_SERVICE_NAME, "orders-indexer"));

        assertThat(lines).singleElement().satisfies(line -> {
            assertThat(directive(line).get("Namespace").asText()).isEqualTo("orders");
            assertThat(directive(line).get("Dimensions").toString()).isEqualTo("[[\"service\",\"feed\"],[\"service\"]]");
            assertThat(line.get("service").asText()).isEqualTo("orders-indexer");
            assertThat(line.get(IndexerMetrics.ACCEPTED.name()).asInt()).isEqualTo(3);
        });
    }

    @Test
    void without_settings_the_namespace_is_appendsfeed_and_there_is_no_service_dimension(LocalDynamo local) {
        List<JsonNode> lines = emfLinesOfOneBatch(local, Map.of());

        assertThat(lines).singleElement().satisfies(line -> {
            assertThat(directive(line).get("Namespace").asText()).isEqualTo(EmfMetrics.NAMESPACE);
            assertThat(directive(line).get("Dimensions").toString()).isEqualTo("[[\"feed\"]]");
            assertThat(line.has("service")).isFalse();
        });
    }

    @Test
    void our_names_win_over_powertools_when_both_are_set(LocalDynamo local) {
        List<JsonNode> lines = emfLinesOfOneBatch(local, Map.of(
                MetricsSettings.NAMESPACE, "ours", MetricsSettings.POWERTOOLS_NAMESPACE, "theirs",
                MetricsSettings.SERVICE_NAME, "our-service", MetricsSettings.POWERTOOLS_SERVICE_NAME, "their-service",
                MetricsSettings.METRICS, "on", MetricsSettings.POWERTOOLS_DISABLED, "true"));

        assertThat(lines).singleElement().satisfies(line -> {
            assertThat(directive(line).get("Namespace").asText()).isEqualTo("ours");
            assertThat(line.get("service").asText()).isEqualTo("our-service");
        });
    }

    @Test
    void powertools_metrics_disabled_prints_nothing(LocalDynamo local) {
        assertThat(emfLinesOfOneBatch(local, Map.of(MetricsSettings.POWERTOOLS_DISABLED, "true"))).isEmpty();
    }

    @Test
    void appends_metrics_off_prints_nothing(LocalDynamo local) {
        assertThat(emfLinesOfOneBatch(local, Map.of(MetricsSettings.METRICS, "off", MetricsSettings.POWERTOOLS_NAMESPACE, "orders")))
                .isEmpty();
    }

    @Test
    void a_value_the_settings_do_not_take_names_the_variable() {
        assertThatThrownBy(() -> MetricsSettings.from(Map.of(MetricsSettings.METRICS, "sometimes")::get))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("APPENDS_METRICS is 'sometimes': give on or off");
        assertThatThrownBy(() -> MetricsSettings.from(Map.of(MetricsSettings.POWERTOOLS_DISABLED, "yes please")::get))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("POWERTOOLS_METRICS_DISABLED is 'yes please': give true or false");
    }
}

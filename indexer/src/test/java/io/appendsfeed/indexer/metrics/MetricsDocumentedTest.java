package io.appendsfeed.indexer.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.appendsfeed.indexer.IndexerMetrics;
import io.appendsfeed.model.metrics.Metric;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.junit.jupiter.api.Test;

class MetricsDocumentedTest {

    @Test
    void the_readme_table_names_every_metric_with_its_kind_and_unit() throws Exception {
        String readme = Files.readString(Path.of("README.md"));
        for (Metric m : IndexerMetrics.ALL) {
            assertThat(readme).as(m.name()).contains("| `" + m.name() + "` | " + m.kind().name().toLowerCase(Locale.ROOT)
                    + " | " + m.unit().cloudWatch());
        }
        assertThat(readme.lines().filter(l -> l.matches("\\| `indexer\\.[a-z.]+` \\| (counter|gauge|timer) \\|.*")))
                .as("no row for a metric that does not exist").hasSize(IndexerMetrics.ALL.size());
    }
}

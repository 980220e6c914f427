package io.appendsfeed.reader;

import static org.assertj.core.api.Assertions.assertThat;

import io.appendsfeed.model.metrics.Metric;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.junit.jupiter.api.Test;

class ReaderMetricsDocumentedTest {

    @Test
    void the_readme_table_names_every_metric_with_its_kind_and_unit() throws Exception {
        String readme = Files.readString(Path.of("README.md"));
        for (Metric m : ReaderMetrics.ALL) {
            assertThat(readme).as(m.name()).contains("| `" + m.name() + "` | " + m.kind().name().toLowerCase(Locale.ROOT)
                    + " | " + m.unit().cloudWatch());
        }
        assertThat(readme.lines().filter(l -> l.matches("\\| `reader\\.[a-z.]+` \\| (counter|gauge|timer) \\|.*")))
                .as("no row for a metric that does not exist").hasSize(ReaderMetrics.ALL.size());
    }
}

package io.appendsfeed.indexer;

import static io.appendsfeed.indexer.IngestTest.in;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.Partitioner;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The builder's default partition count is whatever the index records (the README's OrdersFeed after its Quick start). */
@ExtendWith(LocalDynamoExtension.class)
class PartitionsAsRecordedTest {

    @Test
    void the_default_takes_the_count_the_index_records_and_routes_by_it(LocalDynamo local) {
        String table = IndexerTables.index(local);
        Indexer.start(local.dynamo(), IndexerConfig.builder(table).partitions(2).build());

        Indexer indexer = Indexer.start(local.dynamo(), IndexerConfig.builder(table).build());

        assertThat(indexer.config().partitions()).isEqualTo(2);
        List<SourceSpan> batch = new ArrayList<>();
        Map<StreamName, List<String>> expected = new LinkedHashMap<>();
        Set<Integer> routed = new TreeSet<>();
        for (int s = 0; s < 8; s++) {
            batch.add(in("Order-" + s, 0, "Placed"));
            expected.put(StreamName.parse("Order-" + s), List.of("Placed"));
            routed.add(Partitioner.route(StreamName.parse("Order-" + s), 2).value());
        }
        assertThat(routed).as("the batch spans both partitions").containsExactly(0, 1);
        assertThat(indexer.ingestSpans(batch).complete()).isTrue();
        new FeedReadback(local.dynamo(), table, 2).assertExactly(expected);
    }

    @Test
    void the_default_creates_a_new_index_with_one_partition(LocalDynamo local) {
        String table = IndexerTables.index(local);

        assertThat(Indexer.start(local.dynamo(), IndexerConfig.builder(table).build()).config().partitions()).isEqualTo(1);
        assertThatThrownBy(() -> Indexer.start(local.dynamo(), IndexerConfig.builder(table).partitions(2).build()))
                .as("recorded as 1").isInstanceOf(Indexer.PartitionCountMismatchException.class);
    }

    @Test
    void an_explicit_other_count_is_refused_saying_what_to_do(LocalDynamo local) {
        String table = IndexerTables.index(local);
        Indexer.start(local.dynamo(), IndexerConfig.builder(table).partitions(2).build());

        assertThatThrownBy(() -> Indexer.start(local.dynamo(), IndexerConfig.builder(table).partitions(1).build()))
                .isInstanceOfSatisfying(Indexer.PartitionCountMismatchException.class, e -> {
                    assertThat(e.recorded()).isEqualTo(2);
                    assertThat(e.configured()).isEqualTo(1);
                })
                .hasMessageContaining("configure 2 or leave the partitions unset (the index's count is then taken)");
    }
}

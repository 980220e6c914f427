package io.appendsfeed.reader;

import static org.assertj.core.api.Assertions.assertThat;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.Span;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import io.appendsfeed.model.testing.faults.Fault;
import io.appendsfeed.model.testing.faults.FaultInjector;
import io.appendsfeed.model.testing.faults.FaultPlan;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import io.appendsfeed.reader.FeedReader.CatchUpResult;

@ExtendWith(LocalDynamoExtension.class)
class FeedReaderFaultTest {

    private static final Logger LOG = LoggerFactory.getLogger(FeedReaderFaultTest.class);

    @Test
    void errors_timeouts_and_throttling_on_every_call_lose_no_position_and_hand_over_no_gap(LocalDynamo local) {
        FeedFixture f = new FeedFixture(local, 2);
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (int round = 0; round < 8; round++) {
            List<Span> spans = new ArrayList<>();
            for (int s = 0; s < 6; s++) {
                spans.add(f.write("Account-" + s, "Changed", "Changed"));
                counts.merge("Account-" + s, 2, Integer::sum);
            }
            f.ingest(spans.toArray(Span[]::new));
            if (round == 3) {
                f.closeEpoch(0);
                f.closeEpoch(1);
            }
        }
        FaultInjector faults = new FaultInjector(FaultPlan.random(7, 0.2,
                List.of(Fault.failBefore(), Fault.failAfter(), Fault.throttle()),
                Set.of("Query", "GetItem", "UpdateItem", "PutItem", "TransactWriteItems")));
        Recorder handler = new Recorder();

        CatchUpResult r = new FeedReader(faults.wrap(local.dynamo()), f.config("faults").maxBatchEvents(2).build(), handler)
                .runUntilCaughtUp(Duration.ofSeconds(40));

        LOG.info("{}", faults.summary());
        assertThat(faults.injected()).isNotEmpty();
        assertThat(r.caughtUp()).isTrue();
        counts.forEach((stream, n) -> {
            List<Long> seen = handler.indices(stream);
            assertThat(seen.stream().distinct().sorted().toList()).as(stream)
                    .containsExactlyElementsOf(LongStream.range(0, n).boxed().toList());
            for (int k = 1; k < seen.size(); k++) {
                assertThat(seen.get(k)).as("%s: no gap after %s (redelivery may repeat, never skip)", stream, seen.get(k - 1))
                        .isLessThanOrEqualTo(seen.get(k - 1) + 1);
            }
        });
        assertThat(handler.overlaps).hasValue(0);
        assertThat(handler.byStream.get(StreamName.parse("Account-0"))).allSatisfy(e -> assertThat(e.hasBody()).isTrue());
    }
}

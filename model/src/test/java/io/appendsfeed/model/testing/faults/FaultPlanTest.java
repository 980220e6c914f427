package io.appendsfeed.model.testing.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

class FaultPlanTest {

    private static final List<Fault> KINDS = List.of(Fault.failBefore(), Fault.failAfter(), Fault.throttle(),
            Fault.delay(Duration.ofMillis(1)));

    @Test
    void random_plan_with_a_fixed_seed_is_reproducible() {
        Set<String> operations = Set.of("UpdateItem", "GetRecords");

        List<Optional<Fault>> first = decisions(FaultPlan.random(42, 0.3, KINDS, operations));
        List<Optional<Fault>> again = decisions(FaultPlan.random(42, 0.3, KINDS, operations));
        List<Optional<Fault>> otherSeed = decisions(FaultPlan.random(43, 0.3, KINDS, operations));

        assertThat(again).isEqualTo(first);
        assertThat(otherSeed).isNotEqualTo(first);
        assertThat(first).filteredOn(Optional::isPresent).isNotEmpty();
        assertThat(first.stream().flatMap(Optional::stream).distinct()).containsExactlyInAnyOrderElementsOf(KINDS);
    }

    @Property(tries = 200)
    void random_plan_never_faults_more_than_max_consecutive_calls_in_a_row(
            @ForAll long seed, @ForAll @DoubleRange(min = 0, max = 1) double probability,
            @ForAll @IntRange(min = 1, max = 5) int maxConsecutive) {
        RandomFaults plan = FaultPlan.random(seed, probability, KINDS, Set.of("UpdateItem")).withMaxConsecutive(maxConsecutive);

        assertThat(longestFaultRun(plan, "UpdateItem", 300)).isLessThanOrEqualTo(maxConsecutive);
    }

    @Test
    void random_plan_at_probability_one_faults_exactly_max_consecutive_in_a_row() {
        RandomFaults plan = FaultPlan.random(1, 1.0, KINDS, Set.of("UpdateItem")).withMaxConsecutive(2);

        assertThat(longestFaultRun(plan, "UpdateItem", 30)).isEqualTo(2);
        assertThat(longestFaultRun(plan, "PutItem", 30)).isZero();
    }

    @Test
    void first_matching_rule_wins() {
        FaultRules plan = FaultPlan.builder()
                .nth("UpdateItem", 2, Fault.failAfter())
                .calls("UpdateItem", 1, 3, Fault.throttle())
                .build();

        assertThat(LongStream.rangeClosed(1, 4).mapToObj(n -> plan.faultFor(call("UpdateItem", n))))
                .containsExactly(Optional.of(Fault.throttle()), Optional.of(Fault.failAfter()),
                        Optional.of(Fault.throttle()), Optional.empty());
        assertThat(plan.faultFor(call("GetRecords", 2))).isEmpty();
    }

    @Test
    void unknown_operation_names_are_rejected_with_the_known_ones() {
        assertThatThrownBy(() -> FaultPlan.builder().every("updateItem", Fault.throttle()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown operation 'updateItem'")
                .hasMessageContaining("TransactWriteItems")
                .hasMessageContaining("GetRecords");
        assertThatThrownBy(() -> FaultPlan.random(1, 0.5, KINDS, Set.of("UpdateItems")))
                .hasMessageContaining("unknown operation 'UpdateItems'");
    }

    @Test
    void bad_plan_parameters_are_rejected() {
        assertThatThrownBy(() -> FaultPlan.builder().nth("PutItem", 0, Fault.throttle()))
                .hasMessageContaining("call numbers start at 1");
        assertThatThrownBy(() -> FaultPlan.builder().calls("PutItem", 3, 2, Fault.throttle()))
                .hasMessageContaining("empty");
        assertThatThrownBy(() -> FaultPlan.random(1, 1.5, KINDS, Set.of("PutItem")))
                .hasMessageContaining("probability must be in [0, 1]");
        assertThatThrownBy(() -> FaultPlan.random(1, 0.5, List.of(), Set.of("PutItem")))
                .hasMessageContaining("kinds");
        assertThatThrownBy(() -> Fault.delay(Duration.ofMillis(-1)))
                .hasMessageContaining("must not be negative");
    }

    private static List<Optional<Fault>> decisions(FaultPlan plan) {
        return LongStream.rangeClosed(1, 100)
                .boxed()
                .flatMap(n -> Stream.of(plan.faultFor(call("UpdateItem", n)), plan.faultFor(call("GetRecords", n))))
                .toList();
    }

    private static int longestFaultRun(FaultPlan plan, String operation, long calls) {
        int longest = 0;
        int run = 0;
        for (long n = 1; n <= calls; n++) {
            run = plan.faultFor(call(operation, n)).isPresent() ? run + 1 : 0;
            longest = Math.max(longest, run);
        }
        return longest;
    }

    private static FaultPlan.Call call(String operation, long number) {
        return new FaultPlan.Call(operation, number, operation.equals("GetRecords")
                ? GetRecordsRequest.builder().shardIterator("it").build()
                : UpdateItemRequest.builder().tableName("t").build());
    }
}

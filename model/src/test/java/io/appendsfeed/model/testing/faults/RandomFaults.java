package io.appendsfeed.model.testing.faults;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * A seeded random {@link FaultPlan} for property tests. Whether call {@code n} of operation
 * {@code op} faults, and how, depends only on {@code (seed, op, n)}, so a run is reproduced
 * exactly by its seed whatever else happens in between (other operations, other tables).
 *
 * <p>Bounded so that retrying callers make progress: every {@code (maxConsecutive + 1)}-th call
 * of an operation passes untouched, so no more than {@code maxConsecutive} calls of one operation
 * fault in a row. A single-threaded caller that retries at least {@code maxConsecutive} times
 * therefore always gets through; with several threads sharing an operation, another thread may
 * take the clean call. {@link Fault.Delay} counts as a fault for this bound although the call
 * then succeeds.
 *
 * @param seed print it in the test's failure message so that a failing run can be replayed
 * @param probability chance that an eligible call faults, in [0, 1]
 * @param kinds the faults to draw from, uniformly
 * @param operations the operations that may fault; calls of others always pass
 * @param maxConsecutive the most calls of one operation that fault in a row, at least 1
 */
public record RandomFaults(long seed, double probability, List<Fault> kinds, Set<String> operations, int maxConsecutive)
        implements FaultPlan {

    public static final int DEFAULT_MAX_CONSECUTIVE = 3;

    public RandomFaults {
        if (!(probability >= 0 && probability <= 1)) {
            throw new IllegalArgumentException("probability must be in [0, 1], got " + probability);
        }
        kinds = List.copyOf(Objects.requireNonNull(kinds, "kinds"));
        if (kinds.isEmpty()) {
            throw new IllegalArgumentException("kinds must name at least one fault to draw from");
        }
        operations = Set.copyOf(Objects.requireNonNull(operations, "operations"));
        if (operations.isEmpty()) {
            throw new IllegalArgumentException("operations must name at least one operation, e.g. UpdateItem");
        }
        operations.forEach(Operations::require);
        if (maxConsecutive < 1) {
            throw new IllegalArgumentException("maxConsecutive must be at least 1, got " + maxConsecutive);
        }
    }

    /** The same plan with a different bound on faults in a row. */
    public RandomFaults withMaxConsecutive(int maxConsecutive) {
        return new RandomFaults(seed, probability, kinds, operations, maxConsecutive);
    }

    @Override
    public Optional<Fault> faultFor(Call call) {
        if (!operations.contains(call.operation()) || call.number() % (maxConsecutive + 1) == 0) {
            return Optional.empty();
        }
        SplittableRandom random = new SplittableRandom(mix(call.operation(), call.number()));
        if (random.nextDouble() >= probability) {
            return Optional.empty();
        }
        return Optional.of(kinds.get(random.nextInt(kinds.size())));
    }

    private long mix(String operation, long number) {
        // String.hashCode is specified, so the same seed gives the same faults on every JVM
        long h = seed * 0x9E3779B97F4A7C15L + operation.hashCode();
        return h * 0xBF58476D1CE4E5B9L + number;
    }
}

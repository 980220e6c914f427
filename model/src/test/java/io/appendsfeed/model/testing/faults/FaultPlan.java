package io.appendsfeed.model.testing.faults;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import software.amazon.awssdk.core.SdkRequest;

/**
 * Decides, for each call through a {@link FaultInjector}, which {@link Fault} (if any) to inject.
 * A plan must be a pure function of the {@link Call}: the injector keeps the counters, so one plan
 * can be shared by injectors and threads, and the same calls always get the same faults.
 *
 * <pre>{@code
 * FaultPlan plan = FaultPlan.builder()
 *         .nth("TransactWriteItems", 2, Fault.failAfter())      // the 2nd transaction: written, then a timeout
 *         .calls("GetRecords", 1, 3, Fault.throttle())          // the first three GetRecords throttled
 *         .when(PutItemRequest.class, r -> r.tableName().equals(index), Fault.failBefore())
 *         .build();
 * FaultPlan chaos = FaultPlan.random(42, 0.2, List.of(Fault.failBefore(), Fault.failAfter(), Fault.throttle()),
 *         Set.of("PutItem", "UpdateItem", "TransactWriteItems"));
 * }</pre>
 */
@FunctionalInterface
public interface FaultPlan {

    /**
     * One call as the plan sees it.
     *
     * @param operation the AWS operation name, e.g. {@code UpdateItem}
     * @param number 1 for the first call of this operation through the injector, 2 for the second, ...
     * @param request the request about to be sent
     */
    record Call(String operation, long number, SdkRequest request) {
        public Call {
            Objects.requireNonNull(operation, "operation");
            Objects.requireNonNull(request, "request");
            if (number < 1) {
                throw new IllegalArgumentException("call numbers start at 1, got " + number);
            }
        }
    }

    /** The fault to inject into this call, or empty to pass it through untouched. */
    Optional<Fault> faultFor(Call call);

    /** A plan that injects nothing: the wrapper then only counts calls. */
    static FaultPlan none() {
        return call -> Optional.empty();
    }

    /** Rules by operation and call number or request; the first rule that matches a call wins. */
    static FaultRules.Builder builder() {
        return new FaultRules.Builder();
    }

    /**
     * A reproducible random plan for property tests: each call of one of {@code operations} gets,
     * with {@code probability}, a fault drawn uniformly from {@code kinds}; at most 3 calls of an
     * operation in a row fail, so a caller that retries at least 3 times always gets through.
     * See {@link RandomFaults}.
     *
     * @throws IllegalArgumentException if the probability is outside [0, 1], kinds or operations
     *     are empty, or an operation name is unknown
     */
    static RandomFaults random(long seed, double probability, List<Fault> kinds, Set<String> operations) {
        return new RandomFaults(seed, probability, kinds, operations, RandomFaults.DEFAULT_MAX_CONSECUTIVE);
    }
}

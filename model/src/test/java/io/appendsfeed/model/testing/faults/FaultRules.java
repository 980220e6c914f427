package io.appendsfeed.model.testing.faults;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;
import software.amazon.awssdk.core.SdkRequest;

/**
 * A {@link FaultPlan} made of rules, each naming one operation; the first rule that matches a
 * call decides its fault. Call numbers count every call of the operation through the injector
 * (all tables, all threads), starting at 1. Build one with {@link FaultPlan#builder()}.
 */
public final class FaultRules implements FaultPlan {

    /** One rule: calls of {@code operation} for which {@code matches} holds get {@code fault}. */
    public record Rule(String operation, Predicate<Call> matches, Fault fault, String description) {
        public Rule {
            Operations.require(Objects.requireNonNull(operation, "operation"));
            Objects.requireNonNull(matches, "matches");
            Objects.requireNonNull(fault, "fault");
            Objects.requireNonNull(description, "description");
        }

        @Override
        public String toString() {
            return operation + " " + description + " -> " + fault.describe();
        }
    }

    private final List<Rule> rules;

    private FaultRules(List<Rule> rules) {
        this.rules = List.copyOf(rules);
    }

    public List<Rule> rules() {
        return rules;
    }

    @Override
    public Optional<Fault> faultFor(Call call) {
        for (Rule rule : rules) {
            if (rule.operation().equals(call.operation()) && rule.matches().test(call)) {
                return Optional.of(rule.fault());
            }
        }
        return Optional.empty();
    }

    @Override
    public String toString() {
        return "FaultRules" + rules;
    }

    /** Collects rules in order; every method rejects an unknown operation name at once. */
    public static final class Builder {
        private final List<Rule> rules = new ArrayList<>();

        Builder() {}

        /** The {@code call}-th call of {@code operation} (1-based) gets {@code fault}. */
        public Builder nth(String operation, long call, Fault fault) {
            requirePositive(call);
            return rule(operation, c -> c.number() == call, fault, "#" + call);
        }

        /** Calls {@code from} to {@code to} (inclusive, 1-based) of {@code operation} get {@code fault}. */
        public Builder calls(String operation, long from, long to, Fault fault) {
            requirePositive(from);
            if (to < from) {
                throw new IllegalArgumentException("call range " + from + ".." + to + " is empty: to must be >= from");
            }
            return rule(operation, c -> c.number() >= from && c.number() <= to, fault, "#" + from + ".." + to);
        }

        /** Every call of {@code operation} gets {@code fault}. */
        public Builder every(String operation, Fault fault) {
            return rule(operation, c -> true, fault, "every call");
        }

        /**
         * Every call whose request is a {@code requestType} matching {@code matches} gets
         * {@code fault}, e.g. {@code when(PutItemRequest.class, r -> r.tableName().equals(t), f)}.
         */
        public <R extends SdkRequest> Builder when(Class<R> requestType, Predicate<? super R> matches, Fault fault) {
            Objects.requireNonNull(matches, "matches");
            return rule(Operations.of(requestType),
                    c -> requestType.isInstance(c.request()) && matches.test(requestType.cast(c.request())),
                    fault, "when request matches");
        }

        /** Calls of {@code operation} for which {@code matches} holds (number and request) get {@code fault}. */
        public Builder rule(String operation, Predicate<Call> matches, Fault fault, String description) {
            rules.add(new Rule(operation, matches, fault, description));
            return this;
        }

        public FaultRules build() {
            return new FaultRules(rules);
        }

        private static void requirePositive(long call) {
            if (call < 1) {
                throw new IllegalArgumentException("call numbers start at 1, got " + call);
            }
        }
    }
}

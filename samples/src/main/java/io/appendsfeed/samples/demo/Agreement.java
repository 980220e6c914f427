package io.appendsfeed.samples.demo;

import io.appendsfeed.model.StreamName;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * Do the tallies agree? Every stream must have the same count in each, and no tally may have
 * noticed a problem. The verdict the demo's exit code comes from.
 */
public final class Agreement {

    private Agreement() {}

    /** A stream the tallies disagree on: its count in each tally, in the tallies' order. */
    public record Mismatch(StreamName stream, List<Long> counts) {}

    /** The verdict with the facts behind it. */
    public record Report(List<Tally> tallies, List<Mismatch> mismatches, List<String> problems) {

        public boolean agrees() {
            return mismatches.isEmpty() && problems.isEmpty();
        }

        /** A few lines for people: the totals, then up to {@code maxDetails} mismatches and problems. */
        public String render(int maxDetails) {
            StringBuilder b = new StringBuilder();
            for (Tally t : tallies) {
                b.append(String.format("  %-10s %,10d events in %,d streams%n", t.name(), t.total(), t.perStream().size()));
            }
            if (agrees()) {
                return b.append("  AGREE: every stream has the same events in each, once, in order\n").toString();
            }
            b.append(String.format("  DISAGREE: %,d streams differ, %,d problems%n", mismatches.size(), problems.size()));
            mismatches.stream().limit(maxDetails).forEach(m -> b.append("    ").append(m.stream()).append(": ")
                    .append(describe(m)).append('\n'));
            problems.stream().limit(maxDetails).forEach(p -> b.append("    ").append(p).append('\n'));
            return b.toString();
        }

        private String describe(Mismatch m) {
            List<String> parts = new ArrayList<>();
            for (int k = 0; k < tallies.size(); k++) {
                parts.add(tallies.get(k).name() + " " + m.counts().get(k));
            }
            return String.join(", ", parts);
        }
    }

    /**
     * @throws IllegalArgumentException when given fewer than two tallies (nothing to compare)
     */
    public static Report check(List<Tally> tallies) {
        return check(tallies, List.of());
    }

    /**
     * As {@link #check(List)}, with problems found by other checks (a projection that differs
     * from the store, a notification missing), which also make the tallies disagree.
     */
    public static Report check(List<Tally> tallies, List<String> otherProblems) {
        if (tallies.size() < 2) {
            throw new IllegalArgumentException("agreement needs at least two tallies, got " + tallies.size());
        }
        TreeSet<StreamName> streams = new TreeSet<>();
        tallies.forEach(t -> streams.addAll(t.perStream().keySet()));
        List<Mismatch> mismatches = new ArrayList<>();
        for (StreamName s : streams) {
            List<Long> counts = tallies.stream().map(t -> t.count(s)).toList();
            if (counts.stream().distinct().count() > 1) {
                mismatches.add(new Mismatch(s, counts));
            }
        }
        List<String> problems = new ArrayList<>();
        tallies.forEach(t -> t.problems().forEach(p -> problems.add(t.name() + ": " + p)));
        problems.addAll(otherProblems);
        return new Report(List.copyOf(tallies), mismatches, problems);
    }
}

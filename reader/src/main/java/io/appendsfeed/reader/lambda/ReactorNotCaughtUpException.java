package io.appendsfeed.reader.lambda;

import java.util.List;

/**
 * A scheduled or SNS-triggered invocation that could not do what it was woken for (the time ran out,
 * a partition failed, another invocation still held a lease). Thrown so that Lambda counts the
 * invocation as failed and retries it; what was handled before is committed and is not handled again.
 */
public class ReactorNotCaughtUpException extends RuntimeException {

    private final ReactorOutcome outcome;

    public ReactorNotCaughtUpException(String group, ReactorOutcome outcome) {
        super("group " + group + " did not catch up in " + outcome.took().toMillis() + " ms (" + outcome.runs() + " runs)"
                + (outcome.unmet().isEmpty() ? "" : "; notifications not reached: " + outcome.unmet())
                + (outcome.problems().isEmpty() ? "" : "; " + String.join("; ", outcome.problems())));
        this.outcome = outcome;
    }

    public ReactorOutcome outcome() {
        return outcome;
    }

    public List<String> problems() {
        return outcome.problems();
    }
}

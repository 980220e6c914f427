package io.appendsfeed.model.testing.faults;

import java.time.Duration;
import java.util.Objects;

/**
 * What a {@link FaultInjector} does to one call instead of (or around) passing it straight to
 * the real client. Faults are injected <em>outside</em> the SDK client, so the SDK's own retries
 * never see them: the exception reaches the caller on the first attempt, which is the point —
 * it is our own retry and recovery logic that is under test.
 */
public sealed interface Fault {

    /** Short name used in logs and summaries, e.g. {@code FailAfter} or {@code Delay(5ms)}. */
    String describe();

    /**
     * The request is never sent; the caller gets an {@link software.amazon.awssdk.core.exception.SdkClientException}
     * whose cause is a {@link java.net.SocketTimeoutException} ("connect timed out"), as when the
     * network is down. Nothing was written.
     */
    record FailBefore() implements Fault {
        @Override
        public String describe() {
            return "FailBefore";
        }
    }

    /**
     * The request is sent to the real client and runs to completion (the write happens, or the
     * service rejects it), then the response is lost: the caller gets an
     * {@link software.amazon.awssdk.core.exception.ApiCallTimeoutException} whatever the real
     * outcome was. This is the ambiguous timeout: the caller cannot tell whether its write landed.
     */
    record FailAfter() implements Fault {
        @Override
        public String describe() {
            return "FailAfter";
        }
    }

    /**
     * The request is never sent; the caller gets the service's throttling error:
     * {@link software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException}
     * from DynamoDB; from DynamoDB Streams, {@link software.amazon.awssdk.services.dynamodb.model.LimitExceededException}
     * for {@code GetRecords} and a {@code DynamoDbException} with error code
     * {@code ThrottlingException} for its other operations (what the service sends, and what the
     * DynamoDB Streams Kinesis adapter maps to Kinesis throttling). Status code 400, error code set.
     */
    record Throttle() implements Fault {
        @Override
        public String describe() {
            return "Throttle";
        }
    }

    /**
     * The calling thread waits {@code duration}, then the call proceeds normally. The SDK's
     * timeouts do not count the wait (it happens outside the client). If the thread is
     * interrupted while waiting, its interrupt flag is restored, the request is not sent and the
     * caller gets an {@link software.amazon.awssdk.core.exception.AbortedException}.
     */
    record Delay(Duration duration) implements Fault {
        public Delay {
            Objects.requireNonNull(duration, "duration");
            if (duration.isNegative()) {
                throw new IllegalArgumentException("Delay duration must not be negative, got " + duration);
            }
        }

        @Override
        public String describe() {
            return "Delay(" + duration.toMillis() + "ms)";
        }
    }

    static Fault failBefore() {
        return new FailBefore();
    }

    static Fault failAfter() {
        return new FailAfter();
    }

    static Fault throttle() {
        return new Throttle();
    }

    static Fault delay(Duration duration) {
        return new Delay(duration);
    }
}

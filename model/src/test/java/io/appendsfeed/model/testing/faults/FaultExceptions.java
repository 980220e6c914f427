package io.appendsfeed.model.testing.faults;

import java.net.SocketTimeoutException;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.AbortedException;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.http.SdkHttpResponse;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.LimitExceededException;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;

/**
 * The exceptions injected faults throw, shaped like the ones the SDK and the services produce
 * (types, status codes, error codes), each message naming the injected fault and call.
 */
final class FaultExceptions {

    private static final int BAD_REQUEST = 400;

    private FaultExceptions() {}

    static SdkClientException failBefore(String operation, long number) {
        return SdkClientException.builder()
                .message("Unable to execute HTTP request: connect timed out (injected FailBefore on "
                        + operation + "#" + number + ": the request was not sent)")
                .cause(new SocketTimeoutException("connect timed out"))
                .build();
    }

    /** {@code lostOutcome} is what the real call returned or threw; it is only kept for debugging. */
    static ApiCallTimeoutException failAfter(String operation, long number, Throwable lostOutcome) {
        ApiCallTimeoutException e = ApiCallTimeoutException.builder()
                .message("Client execution did not complete before the specified timeout configuration"
                        + " (injected FailAfter on " + operation + "#" + number
                        + ": the request was sent and completed, its response was lost)")
                .build();
        if (lostOutcome != null) {
            e.addSuppressed(lostOutcome);
        }
        return e;
    }

    static AbortedException interrupted(String operation, long number, InterruptedException cause) {
        return AbortedException.builder()
                .message("Thread interrupted during injected Delay on " + operation + "#" + number
                        + "; the request was not sent")
                .cause(cause)
                .build();
    }

    /**
     * DynamoDB: ProvisionedThroughputExceededException. DynamoDB Streams: LimitExceededException
     * on GetRecords, a DynamoDbException with error code ThrottlingException elsewhere (the
     * Streams client models no ThrottlingException type).
     */
    static AwsServiceException throttle(boolean streams, String operation, long number) {
        String suffix = " (injected Throttle on " + operation + "#" + number + ")";
        if (!streams) {
            String message = "The level of configured provisioned throughput for the table was exceeded" + suffix;
            return ProvisionedThroughputExceededException.builder()
                    .message(message)
                    .statusCode(BAD_REQUEST)
                    .requestId(requestId(operation, number))
                    .awsErrorDetails(details("ProvisionedThroughputExceededException", "DynamoDb", message))
                    .build();
        }
        if (operation.equals("GetRecords")) {
            String message = "Rate exceeded for shard" + suffix;
            return LimitExceededException.builder()
                    .message(message)
                    .statusCode(BAD_REQUEST)
                    .requestId(requestId(operation, number))
                    .awsErrorDetails(details("LimitExceededException", "DynamoDbStreams", message))
                    .build();
        }
        String message = "Rate exceeded" + suffix;
        return DynamoDbException.builder()
                .message(message)
                .statusCode(BAD_REQUEST)
                .requestId(requestId(operation, number))
                .awsErrorDetails(details("ThrottlingException", "DynamoDbStreams", message))
                .build();
    }

    private static AwsErrorDetails details(String code, String service, String message) {
        return AwsErrorDetails.builder()
                .errorCode(code)
                .errorMessage(message)
                .serviceName(service)
                .sdkHttpResponse(SdkHttpResponse.builder().statusCode(BAD_REQUEST).build())
                .build();
    }

    private static String requestId(String operation, long number) {
        return "injected-" + operation + "-" + number;
    }
}

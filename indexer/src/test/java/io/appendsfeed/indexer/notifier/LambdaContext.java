package io.appendsfeed.indexer.notifier;

import com.amazonaws.services.lambda.runtime.ClientContext;
import com.amazonaws.services.lambda.runtime.CognitoIdentity;
import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.LambdaLogger;
import java.time.Duration;
import java.util.UUID;

/** Test support: the Lambda context of one invocation run locally, with its timeout counting down. */
public final class LambdaContext implements Context {

    private final String requestId = UUID.randomUUID().toString();
    private final long deadline;

    public LambdaContext(Duration timeout) {
        this.deadline = System.nanoTime() + timeout.toNanos();
    }

    @Override public String getAwsRequestId() { return requestId; }
    @Override public String getLogGroupName() { return "/aws/lambda/local"; }
    @Override public String getLogStreamName() { return "local"; }
    @Override public String getFunctionName() { return "local"; }
    @Override public String getFunctionVersion() { return "$LATEST"; }
    @Override public String getInvokedFunctionArn() { return "arn:aws:lambda:us-east-1:123456789012:function:local"; }
    @Override public CognitoIdentity getIdentity() { return null; }
    @Override public ClientContext getClientContext() { return null; }
    @Override public int getRemainingTimeInMillis() { return (int) Math.max(0, (deadline - System.nanoTime()) / 1_000_000); }
    @Override public int getMemoryLimitInMB() { return 1024; }
    @Override public LambdaLogger getLogger() {
        return new LambdaLogger() {
            @Override public void log(String message) { System.out.println(message); }
            @Override public void log(byte[] message) { System.out.println(new String(message, java.nio.charset.StandardCharsets.UTF_8)); }
        };
    }
}

package io.appendsfeed.reader.lambda;

import com.amazonaws.services.lambda.runtime.ClientContext;
import com.amazonaws.services.lambda.runtime.CognitoIdentity;
import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.LambdaLogger;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;

/** Test support: the Lambda context of one invocation run locally, with a timeout as Lambda counts it. */
public final class LocalContext implements Context {

    private final String requestId = UUID.randomUUID().toString();
    private final long deadline;

    public LocalContext(Duration timeout) {
        this.deadline = System.nanoTime() + timeout.toNanos();
    }

    @Override public String getAwsRequestId() { return requestId; }
    @Override public String getLogGroupName() { return "/aws/lambda/local-reactor"; }
    @Override public String getLogStreamName() { return "local"; }
    @Override public String getFunctionName() { return "local-reactor"; }
    @Override public String getFunctionVersion() { return "$LATEST"; }
    @Override public String getInvokedFunctionArn() { return "arn:aws:lambda:us-east-1:123456789012:function:local-reactor"; }
    @Override public CognitoIdentity getIdentity() { return null; }
    @Override public ClientContext getClientContext() { return null; }
    @Override public int getRemainingTimeInMillis() { return (int) Math.max(0, (deadline - System.nanoTime()) / 1_000_000); }
    @Override public int getMemoryLimitInMB() { return 1024; }

    @Override
    public LambdaLogger getLogger() {
        return new LambdaLogger() {
            @Override public void log(String message) { System.out.println(message); }
            @Override public void log(byte[] message) { System.out.println(new String(message, StandardCharsets.UTF_8)); }
        };
    }
}

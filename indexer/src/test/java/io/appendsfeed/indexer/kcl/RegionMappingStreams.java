package io.appendsfeed.indexer.kcl;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import software.amazon.awssdk.services.dynamodb.model.DescribeStreamRequest;
import software.amazon.awssdk.services.dynamodb.model.DescribeStreamResponse;
import software.amazon.awssdk.services.dynamodb.model.GetShardIteratorRequest;
import software.amazon.awssdk.services.dynamodb.model.ListStreamsResponse;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * Test support, for what DynamoDB Local cannot do: its stream ARNs carry the region
 * {@code ddblocal}, which the Kinesis adapter refuses ("Invalid DynamoDB stream ARN format"). This
 * Streams client shows the adapter {@code us-east-1} ARNs and maps them back on the way in.
 */
final class RegionMappingStreams {

    static final String LOCAL = "arn:aws:dynamodb:ddblocal:";
    static final String SHOWN = "arn:aws:dynamodb:us-east-1:";

    private RegionMappingStreams() {}

    /** The ARN the adapter must be given for a DynamoDB Local stream ARN. */
    static String shown(String localArn) {
        return localArn.replace(LOCAL, SHOWN);
    }

    static DynamoDbStreamsClient wrap(DynamoDbStreamsClient real) {
        InvocationHandler h = (proxy, method, args) -> {
            Object[] in = args == null ? null : args.clone();
            if (in != null && in.length == 1) {
                if (in[0] instanceof DescribeStreamRequest r) {
                    in[0] = r.toBuilder().streamArn(local(r.streamArn())).build();
                } else if (in[0] instanceof GetShardIteratorRequest r) {
                    in[0] = r.toBuilder().streamArn(local(r.streamArn())).build();
                } else if (in[0] instanceof java.util.function.Consumer<?>) {
                    throw new UnsupportedOperationException("map the ARN of " + method.getName()
                            + "(Consumer) here too: the adapter has started calling it");
                }
            }
            Object out;
            try {
                out = method.invoke(real, in);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
            if (out instanceof DescribeStreamResponse r) {
                return r.toBuilder().streamDescription(r.streamDescription().toBuilder()
                        .streamArn(shown(r.streamDescription().streamArn())).build()).build();
            }
            if (out instanceof ListStreamsResponse r) {
                return r.toBuilder().streams(r.streams().stream()
                        .map(s -> s.toBuilder().streamArn(shown(s.streamArn())).build()).toList()).build();
            }
            return out;
        };
        return (DynamoDbStreamsClient) Proxy.newProxyInstance(DynamoDbStreamsClient.class.getClassLoader(),
                new Class<?>[] {DynamoDbStreamsClient.class}, h);
    }

    private static String local(String arn) {
        return arn == null ? null : arn.replace(SHOWN, LOCAL);
    }
}

package io.appendsfeed.model.testing.faults;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.SdkResponse;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * Operation names as AWS spells them ({@code UpdateItem}, {@code GetRecords}), read off the client
 * interfaces so that every operation of this SDK version is known and a typo in a plan is caught.
 */
final class Operations {

    /** Every operation of DynamoDB and DynamoDB Streams, sorted. */
    static final Set<String> ALL = Stream.of(DynamoDbClient.class, DynamoDbStreamsClient.class)
            .flatMap(c -> Arrays.stream(c.getMethods()))
            .filter(Operations::isOperation)
            .map(Operations::name)
            .collect(Collectors.toCollection(TreeSet::new));

    private Operations() {}

    /**
     * True for the one method per operation that a client implementation overrides, e.g.
     * {@code PutItemResponse putItem(PutItemRequest)}; false for its consumer-builder and no-argument
     * overloads and for paginators, which the interface implements by calling that method.
     */
    static boolean isOperation(Method method) {
        return method.getParameterCount() == 1
                && SdkRequest.class.isAssignableFrom(method.getParameterTypes()[0])
                && SdkResponse.class.isAssignableFrom(method.getReturnType());
    }

    /** {@code PutItemRequest} → {@code PutItem}. */
    static String name(Method operation) {
        String request = operation.getParameterTypes()[0].getSimpleName();
        return request.substring(0, request.length() - "Request".length());
    }

    /** The operation a request type belongs to: {@code PutItemRequest.class} → {@code PutItem}. */
    static String of(Class<? extends SdkRequest> requestType) {
        String request = requestType.getSimpleName();
        if (!request.endsWith("Request")) {
            throw new IllegalArgumentException(requestType.getName() + " is not an operation's request type");
        }
        return require(request.substring(0, request.length() - "Request".length()));
    }

    /**
     * @throws IllegalArgumentException if {@code operation} is not an operation of DynamoDB or
     *     DynamoDB Streams, naming the known ones
     */
    static String require(String operation) {
        if (!ALL.contains(operation)) {
            throw new IllegalArgumentException("unknown operation '" + operation
                    + "': use the AWS operation name (UpdateItem, not updateItem); known: " + ALL);
        }
        return operation;
    }
}

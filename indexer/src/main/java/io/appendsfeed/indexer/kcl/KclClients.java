package io.appendsfeed.indexer.kcl;

import io.appendsfeed.model.DynamoClients;
import java.util.Objects;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.DefaultAwsRegionProviderChain;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClientBuilder;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * The clients a {@link KclIndexer} works with; {@link #close()} closes them.
 *
 * @param dynamo the index table and the store table's description
 * @param leases KCL's lease, worker-metrics and coordinator-state tables
 * @param region the region of the stream
 */
public record KclClients(DynamoDbClient dynamo, DynamoDbAsyncClient leases, DynamoDbStreamsClient streams, Region region) implements AutoCloseable {

    public KclClients {
        Objects.requireNonNull(dynamo, "dynamo");
        Objects.requireNonNull(leases, "leases");
        Objects.requireNonNull(streams, "streams");
        Objects.requireNonNull(region, "region");
    }

    /** Every client from one setting; an endpoint (DynamoDB Local) applies to all of them. */
    public static KclClients of(DynamoClients.Settings settings) {
        Region region = settings.region().orElseGet(() -> new DefaultAwsRegionProviderChain().getRegion());
        DynamoDbAsyncClientBuilder leases = DynamoDbAsyncClient.builder().region(region);
        settings.endpoint().ifPresent(leases::endpointOverride);
        settings.credentials().ifPresent(leases::credentialsProvider);
        return new KclClients(DynamoClients.dynamoDb(settings), leases.build(), DynamoClients.streams(settings), region);
    }

    @Override
    public void close() {
        streams.close();
        leases.close();
        dynamo.close();
    }
}

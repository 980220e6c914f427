package io.appendsfeed.indexer.kcl.internal;

import java.util.concurrent.CompletionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * Creates KCL's lease table in the shape KCL 3 creates it (hash key {@code leaseKey}, index
 * {@code LeaseOwnerToLeaseKeyIndex} on {@code leaseOwner} + {@code leaseKey}, keys only). KCL
 * creates it too when missing, but only after a random wait of up to 30 s, and then polls for the
 * index; creating it first saves that start-up time.
 */
public final class LeaseTables {

    private static final Logger log = LoggerFactory.getLogger(LeaseTables.class);

    /** KCL 3's names: they define the lease table's format. */
    public static final String LEASE_KEY = "leaseKey";
    public static final String LEASE_OWNER = "leaseOwner";
    public static final String OWNER_INDEX = "LeaseOwnerToLeaseKeyIndex";

    private LeaseTables() {}

    /** @throws RuntimeException from DynamoDB (other than the table existing already) */
    public static void ensure(DynamoDbAsyncClient dynamo, String table) {
        try {
            dynamo.describeTable(b -> b.tableName(table)).join();
            return;
        } catch (CompletionException e) {
            if (!(e.getCause() instanceof ResourceNotFoundException)) {
                throw e;
            }
        }
        try {
            dynamo.createTable(b -> b.tableName(table).billingMode(BillingMode.PAY_PER_REQUEST)
                    .attributeDefinitions(attr(LEASE_KEY), attr(LEASE_OWNER))
                    .keySchema(KeySchemaElement.builder().attributeName(LEASE_KEY).keyType(KeyType.HASH).build())
                    .globalSecondaryIndexes(GlobalSecondaryIndex.builder().indexName(OWNER_INDEX)
                            .keySchema(KeySchemaElement.builder().attributeName(LEASE_OWNER).keyType(KeyType.HASH).build(),
                                    KeySchemaElement.builder().attributeName(LEASE_KEY).keyType(KeyType.RANGE).build())
                            .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY)).build())).join();
            log.info("lease table {} created", table);
        } catch (CompletionException e) {
            if (!(e.getCause() instanceof ResourceInUseException)) { // another worker created it first
                throw e;
            }
        }
        dynamo.waiter().waitUntilTableExists(b -> b.tableName(table)).join();
    }

    private static AttributeDefinition attr(String name) {
        return AttributeDefinition.builder().attributeName(name).attributeType(ScalarAttributeType.S).build();
    }
}

package io.appendsfeed.model.store;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.waiters.WaiterResponse;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableResponse;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.StreamSpecification;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;

/** Creates and verifies tables of the store format: hash key {@code p} (S), range key {@code i} (N), on-demand. */
public final class StoreTables {

    private static final Logger log = LoggerFactory.getLogger(StoreTables.class);

    private StoreTables() {}

    /**
     * Creates the table unless it exists (an existing one is never changed), waits until it is ACTIVE, and verifies it.
     *
     * @param view {@code NEW_IMAGE} or {@code NEW_AND_OLD_IMAGES} for an event-store table; null for no Streams
     * @throws WrongTableShapeException when the table is of the wrong shape
     */
    public static void ensure(DynamoDbClient dynamo, String table, StreamViewType view) {
        if (view != null && view != StreamViewType.NEW_IMAGE && view != StreamViewType.NEW_AND_OLD_IMAGES) {
            throw new IllegalArgumentException("stream view type " + view + " does not carry the new Tip the indexer "
                    + "reads; use NEW_IMAGE or NEW_AND_OLD_IMAGES (or null for a table without Streams)");
        }
        if (describe(dynamo, table) == null) {
            try {
                dynamo.createTable(b -> b.tableName(table)
                        .attributeDefinitions(
                                AttributeDefinition.builder().attributeName(StoreItems.STREAM).attributeType(ScalarAttributeType.S).build(),
                                AttributeDefinition.builder().attributeName(StoreItems.RANGE).attributeType(ScalarAttributeType.N).build())
                        .keySchema(
                                KeySchemaElement.builder().attributeName(StoreItems.STREAM).keyType(KeyType.HASH).build(),
                                KeySchemaElement.builder().attributeName(StoreItems.RANGE).keyType(KeyType.RANGE).build())
                        .billingMode(BillingMode.PAY_PER_REQUEST)
                        .streamSpecification(view == null ? null
                                : StreamSpecification.builder().streamEnabled(true).streamViewType(view).build()));
                log.info("created table {} (Streams {})", table, view == null ? "off" : view);
            } catch (ResourceInUseException e) {
                log.info("table {} is being created by someone else; waiting for it", table);
            }
        }
        WaiterResponse<DescribeTableResponse> waited = dynamo.waiter().waitUntilTableExists(b -> b.tableName(table));
        waited.matched().exception().ifPresent(e -> {
            throw new IllegalStateException("table '" + table + "' did not become ACTIVE", e);
        });
        verify(dynamo, table, view != null);
    }

    /**
     * @param requireStreams true for an event-store table, which must have Streams on with new images
     * @throws WrongTableShapeException naming what is wrong and what to do
     */
    public static void verify(DynamoDbClient dynamo, String table, boolean requireStreams) {
        TableDescription description = describe(dynamo, table);
        if (description == null) {
            throw WrongTableShapeException.missing(table, null);
        }
        List<String> problems = problems(description, requireStreams);
        if (!problems.isEmpty()) {
            throw new WrongTableShapeException(table, "table '" + table + "' is not an appendsfeed store table: "
                    + String.join("; ", problems), null);
        }
        if (description.tableStatus() != TableStatus.ACTIVE) {
            log.info("table {} is {}, not yet ACTIVE", table, description.tableStatusAsString());
        }
    }

    private static TableDescription describe(DynamoDbClient dynamo, String table) {
        try {
            return dynamo.describeTable(b -> b.tableName(table)).table();
        } catch (ResourceNotFoundException e) {
            return null;
        }
    }

    private static List<String> problems(TableDescription table, boolean requireStreams) {
        List<String> problems = new ArrayList<>();
        Map<String, String> types = table.attributeDefinitions().stream()
                .collect(Collectors.toMap(AttributeDefinition::attributeName, AttributeDefinition::attributeTypeAsString));
        Map<KeyType, KeySchemaElement> keys = table.keySchema().stream()
                .collect(Collectors.toMap(KeySchemaElement::keyType, Function.identity()));
        key(problems, keys.get(KeyType.HASH), "hash", StoreItems.STREAM, "S", types);
        key(problems, keys.get(KeyType.RANGE), "range", StoreItems.RANGE, "N", types);
        if (!problems.isEmpty()) {
            problems.add("the key schema cannot be changed: create a new table with hash key 'p' (S) and range key "
                    + "'i' (N) (StoreTables.ensure does) and copy the items");
        }
        if (requireStreams) {
            StreamSpecification s = table.streamSpecification();
            if (s == null || !Boolean.TRUE.equals(s.streamEnabled())) {
                problems.add("DynamoDB Streams is off; the indexer needs it: enable it with view type NEW_IMAGE "
                        + "(aws dynamodb update-table --table-name " + table.tableName()
                        + " --stream-specification StreamEnabled=true,StreamViewType=NEW_IMAGE)");
            } else if (s.streamViewType() != StreamViewType.NEW_IMAGE && s.streamViewType() != StreamViewType.NEW_AND_OLD_IMAGES) {
                problems.add("DynamoDB Streams has view type " + s.streamViewTypeAsString() + ", which does not carry "
                        + "the new Tip the indexer reads: disable Streams and enable it again with NEW_IMAGE or "
                        + "NEW_AND_OLD_IMAGES (the indexer must then start from the new stream)");
            }
        }
        return problems;
    }

    private static void key(List<String> problems, KeySchemaElement key, String kind, String name, String type,
                            Map<String, String> types) {
        if (key == null) {
            problems.add("it has no " + kind + " key; the format needs " + kind + " key '" + name + "' (" + type + ")");
            return;
        }
        if (!name.equals(key.attributeName())) {
            problems.add("its " + kind + " key is '" + key.attributeName() + "'; the format needs '" + name + "' (" + type + ")");
            return;
        }
        String actual = types.get(name);
        if (!type.equals(actual)) {
            problems.add("its " + kind + " key '" + name + "' is of type " + actual + "; the format needs " + type);
        }
    }

    /** A table that is not of the store format, or does not exist where the client looked. */
    public static class WrongTableShapeException extends RuntimeException {

        private final String table;

        private WrongTableShapeException(String table, String message, Throwable cause) {
            super(message, cause);
            this.table = table;
        }

        /** Unlike DynamoDB's own error, names the table and how to create it. */
        public static WrongTableShapeException missing(String table, Throwable cause) {
            return new WrongTableShapeException(table, "table '" + table + "' does not exist here (check the region and endpoint):"
                    + " create it with StoreTables.ensure(dynamo, \"" + table + "\", StreamViewType.NEW_IMAGE) for a store table or"
                    + " StoreTables.ensure(dynamo, \"" + table + "\", null) for an index table, or deploy indexer/deploy/template.yaml",
                    cause);
        }

        public String table() {
            return table;
        }
    }
}

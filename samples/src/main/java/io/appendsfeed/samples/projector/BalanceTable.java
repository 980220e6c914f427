package io.appendsfeed.samples.projector;

import io.appendsfeed.samples.bank.AccountId;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/** The query table: a plain DynamoDB table, one item per account (hash key {@code account}), read with a {@code GetItem}. */
public final class BalanceTable {

    private final DynamoDbClient dynamo;
    private final String table;

    /** The caller owns {@code dynamo}. */
    public BalanceTable(DynamoDbClient dynamo, String table) {
        this.dynamo = dynamo;
        this.table = table;
    }

    public String name() {
        return table;
    }

    /** Creates the table unless it exists, and waits until it is active. */
    public BalanceTable ensure() {
        try {
            dynamo.createTable(b -> b.tableName(table).billingMode(BillingMode.PAY_PER_REQUEST)
                    .attributeDefinitions(AttributeDefinition.builder().attributeName("account").attributeType(ScalarAttributeType.S).build())
                    .keySchema(KeySchemaElement.builder().attributeName("account").keyType(KeyType.HASH).build()));
        } catch (ResourceInUseException alreadyThere) {
            // created before (or by a concurrent start): the waiter below checks it is usable
        }
        dynamo.waiter().waitUntilTableExists(b -> b.tableName(table));
        return this;
    }

    /** The row, read strongly consistent (the projector must see its own last write). */
    public Optional<BalanceRow> get(AccountId account) {
        Map<String, AttributeValue> item = dynamo.getItem(b -> b.tableName(table).consistentRead(true)
                .key(Map.of("account", s(account.value())))).item();
        return item == null || item.isEmpty() ? Optional.empty() : Optional.of(row(item));
    }

    /** Writes the row unless the table holds this version or a later one: a late write never takes a balance back. */
    public boolean put(BalanceRow row) {
        Map<String, AttributeValue> item = new HashMap<>();
        item.put("account", s(row.account().value()));
        if (row.owner() != null) {
            item.put("owner", s(row.owner()));
        }
        item.put("balance", n(row.balance()));
        item.put("overdraftLimit", n(row.overdraftLimit()));
        item.put("transactions", n(row.transactions()));
        item.put("version", n(row.version()));
        item.put("overdrawn", AttributeValue.fromBool(row.overdrawn()));
        try {
            dynamo.putItem(b -> b.tableName(table).item(item)
                    .conditionExpression("attribute_not_exists(account) OR version < :v")
                    .expressionAttributeValues(Map.of(":v", n(row.version()))));
            return true;
        } catch (ConditionalCheckFailedException sameOrNewer) {
            return false;
        }
    }

    /** Every row (a full scan: for checks and small tables). */
    public List<BalanceRow> scan() {
        return dynamo.scanPaginator(b -> b.tableName(table).consistentRead(true)).items().stream().map(BalanceTable::row).toList();
    }

    /** Deletes every row: the first step of a rebuild. */
    public void clear() {
        for (BalanceRow row : scan()) {
            dynamo.deleteItem(b -> b.tableName(table).key(Map.of("account", s(row.account().value()))));
        }
    }

    private static BalanceRow row(Map<String, AttributeValue> i) {
        AttributeValue owner = i.get("owner");
        return new BalanceRow(AccountId.of(i.get("account").s()), owner == null ? null : owner.s(),
                Long.parseLong(i.get("balance").n()), Long.parseLong(i.get("overdraftLimit").n()),
                Long.parseLong(i.get("transactions").n()), Long.parseLong(i.get("version").n()));
    }

    private static AttributeValue s(String v) {
        return AttributeValue.fromS(v);
    }

    private static AttributeValue n(long v) {
        return AttributeValue.fromN(Long.toString(v));
    }
}

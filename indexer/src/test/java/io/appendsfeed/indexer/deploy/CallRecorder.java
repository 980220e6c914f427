package io.appendsfeed.indexer.deploy;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * Test support: records every DynamoDB request a client sends as the IAM authorisations it needs,
 * each with its table and the partition key ({@code dynamodb:LeadingKeys}) it touches. A transaction
 * needs the action of each of its items; a request of a kind not listed here fails the test.
 */
final class CallRecorder implements ExecutionInterceptor {

    /** One IAM authorisation: action (e.g. {@code dynamodb:PutItem}), table, partition key. */
    record Authorisation(String action, String table, String partitionKey) {}

    private static final Pattern KEY_CONDITION = Pattern.compile("(#\\w+|\\bp)\\s*=\\s*(:\\w+)");

    private final List<Authorisation> calls = new CopyOnWriteArrayList<>();
    private final List<String> operations = new CopyOnWriteArrayList<>();

    List<Authorisation> authorisations() {
        return List.copyOf(calls);
    }

    /** The API operations as sent, e.g. {@code TransactWriteItems}. */
    List<String> operations() {
        return List.copyOf(operations);
    }

    @Override
    public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
        Object request = context.request();
        operations.add(request.getClass().getSimpleName().replace("Request", ""));
        if (request instanceof GetItemRequest r) {
            add("GetItem", r.tableName(), r.key());
        } else if (request instanceof PutItemRequest r) {
            add("PutItem", r.tableName(), r.item());
        } else if (request instanceof UpdateItemRequest r) {
            add("UpdateItem", r.tableName(), r.key());
        } else if (request instanceof BatchGetItemRequest r) {
            r.requestItems().forEach((table, keys) -> keys.keys().forEach(key -> add("BatchGetItem", table, key)));
        } else if (request instanceof DeleteItemRequest r) {
            add("DeleteItem", r.tableName(), r.key());
        } else if (request instanceof DescribeTableRequest r) {
            calls.add(new Authorisation("dynamodb:DescribeTable", r.tableName(), null)); // no item: no leading key
        } else if (request instanceof ScanRequest r) {
            calls.add(new Authorisation("dynamodb:Scan", r.tableName(), null)); // every partition key: no leading key
        } else if (request instanceof QueryRequest r) {
            calls.add(new Authorisation("dynamodb:Query", r.tableName(), queriedKey(r)));
        } else if (request instanceof TransactWriteItemsRequest r) {
            for (TransactWriteItem item : r.transactItems()) {
                if (item.put() != null) {
                    add("PutItem", item.put().tableName(), item.put().item());
                } else if (item.update() != null) {
                    add("UpdateItem", item.update().tableName(), item.update().key());
                } else if (item.delete() != null) {
                    add("DeleteItem", item.delete().tableName(), item.delete().key());
                } else if (item.conditionCheck() != null) {
                    add("ConditionCheckItem", item.conditionCheck().tableName(), item.conditionCheck().key());
                }
            }
        } else {
            throw new AssertionError("a request this test does not know how to authorise: " + request);
        }
    }

    private void add(String action, String table, Map<String, AttributeValue> key) {
        calls.add(new Authorisation("dynamodb:" + action, table, key.get("p").s()));
    }

    private static String queriedKey(QueryRequest r) {
        Matcher m = KEY_CONDITION.matcher(r.keyConditionExpression());
        while (m.find()) {
            String name = m.group(1).startsWith("#") ? r.expressionAttributeNames().get(m.group(1)) : m.group(1);
            if ("p".equals(name)) {
                return r.expressionAttributeValues().get(m.group(2)).s();
            }
        }
        throw new AssertionError("query without an equality on p: " + r.keyConditionExpression());
    }
}

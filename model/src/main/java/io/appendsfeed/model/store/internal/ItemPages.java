package io.appendsfeed.model.store.internal;

import io.appendsfeed.model.StreamName;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.function.IntSupplier;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * The items of one stream's key range, fetched a {@code Query} page at a time, only when wanted;
 * then, once they are done, the items of the pages chained after them ({@link #then}), which are not
 * queried before.
 */
final class ItemPages implements Iterator<Map<String, AttributeValue>> {

    private final MeteredDynamo dynamo;
    private final QueryRequest.Builder query;
    private final IntSupplier limit;
    private final boolean onePage;
    private final Deque<Map<String, AttributeValue>> buffered = new ArrayDeque<>();
    private Map<String, AttributeValue> startKey;
    private boolean exhausted;
    private ItemPages then;

    /**
     * @param range a key condition on {@code #i} with value {@code :k}, or null for every item
     * @param limit items for the next page, asked before each page: a reader sizes pages by what it still wants
     * @param onePage only the first page
     * @param bodies false for a types-only read: the keys, {@code n} and {@code c}, no bodies
     */
    ItemPages(MeteredDynamo dynamo, StreamName stream, String range, long k, boolean ascending, IntSupplier limit,
              boolean onePage, boolean consistent, boolean bodies) {
        this.dynamo = dynamo;
        this.onePage = onePage;
        this.limit = limit;
        Map<String, String> names = new LinkedHashMap<>();
        names.put("#p", Fields.P);
        Map<String, AttributeValue> values = new LinkedHashMap<>();
        values.put(":p", AttributeValue.fromS(stream.value()));
        String condition = "#p = :p";
        if (range != null) {
            names.put("#i", Fields.I);
            values.put(":k", TipWrites.num(k));
            condition += " AND " + range;
        }
        QueryRequest.Builder q = QueryRequest.builder().keyConditionExpression(condition)
                .expressionAttributeValues(values).scanIndexForward(ascending).consistentRead(consistent);
        if (!bodies) {
            names.put("#i", Fields.I);
            names.put("#n", Fields.N);
            names.put("#c", Fields.C);
            q.projectionExpression("#p, #i, #n, #c");
        }
        this.query = q.expressionAttributeNames(names);
    }

    /** {@code next}'s items after these: this, for chaining. */
    ItemPages then(ItemPages next) {
        this.then = next;
        return this;
    }

    /** An item already fetched comes first. */
    ItemPages pushFront(Map<String, AttributeValue> item) {
        buffered.addFirst(item);
        return this;
    }

    @Override
    public boolean hasNext() {
        while (buffered.isEmpty() && !exhausted) {
            QueryResponse page = dynamo.query(query.exclusiveStartKey(startKey).limit(Math.max(1, limit.getAsInt())));
            buffered.addAll(page.items());
            startKey = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
            exhausted = startKey == null || onePage;
        }
        return !buffered.isEmpty() || then != null && then.hasNext();
    }

    /** {@link #next()} would return an item already fetched, without a query. */
    boolean hasFetched() {
        return !buffered.isEmpty() || exhausted && then != null && then.hasFetched();
    }

    /** Nothing more, known without a query. */
    boolean done() {
        return buffered.isEmpty() && exhausted && (then == null || then.done());
    }

    @Override
    public Map<String, AttributeValue> next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        return buffered.isEmpty() ? then.next() : buffered.poll();
    }
}

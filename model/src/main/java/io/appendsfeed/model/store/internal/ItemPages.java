package io.appendsfeed.model.store.internal;

import io.appendsfeed.model.StreamName;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.NoSuchElementException;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/** The items of one stream's key range, fetched a {@code Query} page at a time, only when wanted. */
final class ItemPages implements StreamReader.FetchedItems {

    /** Projection of a types-only read: the keys, {@code n} and {@code c}, no bodies. */
    private static final String TYPES_ONLY = "#p, #i, #n, #c";

    private final MeteredDynamo dynamo;
    private final QueryRequest.Builder query;
    private final Deque<Map<String, AttributeValue>> buffered = new ArrayDeque<>();
    private Map<String, AttributeValue> startKey;
    private final boolean onePage;
    private final java.util.function.IntSupplier limit;
    private boolean exhausted;

    /**
     * @param range a key condition on {@code #i} with value {@code :k}, or null for every item
     * @param limit items per page
     * @param onePage only the first page: {@code limit} items at most
     */
    ItemPages(MeteredDynamo dynamo, StreamName stream, String range, long k, boolean ascending, int limit,
              boolean onePage, boolean consistent, boolean bodies) {
        this(dynamo, stream, range, k, ascending, () -> limit, onePage, consistent, bodies);
    }

    /** @param limit items for the next page, asked before each page: a reader sizes pages by what it still wants */
    ItemPages(MeteredDynamo dynamo, StreamName stream, String range, long k, boolean ascending, java.util.function.IntSupplier limit,
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
            q.projectionExpression(TYPES_ONLY);
        }
        this.query = q.expressionAttributeNames(names);
    }

    @Override
    public boolean hasNext() {
        while (buffered.isEmpty() && !exhausted) {
            QueryResponse page = dynamo.query(query.exclusiveStartKey(startKey).limit(Math.max(1, limit.getAsInt()))).response();
            buffered.addAll(page.items());
            startKey = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
            exhausted = startKey == null || onePage;
        }
        return !buffered.isEmpty();
    }

    @Override
    public boolean hasFetched() {
        return !buffered.isEmpty();
    }

    @Override
    public boolean done() {
        return buffered.isEmpty() && exhausted;
    }

    @Override
    public Map<String, AttributeValue> next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        return buffered.poll();
    }
}

package io.appendsfeed.reader.internal;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.StoredEvent;
import io.appendsfeed.model.store.internal.Fields;
import io.appendsfeed.model.store.internal.Items;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * Reads the events {@code [first, last]} of one stream from the store table with the fewest items
 * read: a forward {@code Query} from the item holding {@code first} (known from {@link StreamLayouts},
 * else found with one descending {@code Query} of one item), asking for as many items as the layout
 * says cover {@code last}, and paging on only when they fell short. Each item is charged once; the
 * bodies of events outside the range are never decoded. Items may come from a lagging replica: the
 * caller checks that every wanted event came.
 */
final class ItemRangeReader {

    /** The attributes a load needs: keys, {@code n}, types and events (never the Tip's unfolds). */
    private static final String PROJECTION = "#p, #i, #n, #c, #e";
    private static final Map<String, String> NAMES = Map.of("#p", Fields.P, "#i", Fields.I, "#n", Fields.N,
            "#c", Fields.C, "#e", Fields.E);
    private static final int MAX_PAGE_ITEMS = 100;

    private final DynamoDbClient dynamo;
    private final String table;
    private final StreamLayouts layouts;
    private final ItemCache cache;

    ItemRangeReader(DynamoDbClient dynamo, String table, StreamLayouts layouts, ItemCache cache) {
        this.dynamo = dynamo;
        this.table = table;
        this.layouts = layouts;
        this.cache = cache;
    }

    /** The events of {@code [first, last]} found, by index. */
    Map<Long, StoredEvent> read(StreamName stream, long first, long last, boolean consistent) {
        StreamLayouts.Layout layout = layouts.of(stream);
        Map<Long, StoredEvent> out = new HashMap<>();
        Map<String, AttributeValue> cached = cache.covering(stream, first, last);
        if (cached != null) {
            take(stream, cached, first, last, layout, out);
            return out;
        }
        long start = first == 0 ? 0 : layout.startKey(first);
        String range = "#i >= :k";
        if (start < 0) {
            // not known where `first` sits: the calf with the greatest first index <= first, if any
            QueryResponse r = query(stream, "#i <= :k", first, false, 1, consistent, null);
            start = first;
            range = "#i > :k";
            if (!r.items().isEmpty() && !Items.isTip(r.items().get(0))) {
                Map<String, AttributeValue> calf = r.items().get(0);
                if (take(stream, calf, first, last, layout, out)) {
                    keep(stream, calf, last);
                    return out;
                }
                start = Items.rangeKey(calf);
            }
        }
        int limit = layout.itemsTo(start, last);
        Map<String, AttributeValue> from = null;
        while (true) {
            QueryResponse r = query(stream, range, start, true, limit, consistent, from);
            for (Map<String, AttributeValue> item : r.items()) {
                if (take(stream, item, first, last, layout, out)) {
                    keep(stream, item, last);
                    return out;
                }
            }
            if (!r.hasLastEvaluatedKey() || r.lastEvaluatedKey().isEmpty()) {
                return out; // the stream ends before `last` here (a lagging replica, or a bad feed)
            }
            from = r.lastEvaluatedKey();
            limit = Math.min(MAX_PAGE_ITEMS, limit * 2);
        }
    }

    /** Caches the item that ended a load when it holds events after the range: the stream's next load wants them. */
    private void keep(StreamName stream, Map<String, AttributeValue> item, long last) {
        long next = Items.next(stream, item);
        if (next > last + 1) {
            cache.put(stream, item, Items.firstIndex(stream, item), next);
        } else {
            cache.remove(stream);
        }
    }

    /** Adds the item's events in range; true when it reaches past {@code last}, so nothing after it is needed. */
    private static boolean take(StreamName stream, Map<String, AttributeValue> item, long first, long last,
                                StreamLayouts.Layout layout, Map<Long, StoredEvent> out) {
        long next = Items.next(stream, item);
        if (Items.isTip(item)) {
            layout.tip(Items.firstIndex(stream, item));
        } else {
            layout.calf(Items.rangeKey(item), next);
        }
        List<StoredEvent> events = Items.events(stream, item, true, first, last + 1);
        for (StoredEvent e : events) {
            out.putIfAbsent(e.index(), e);
        }
        return next > last;
    }

    private QueryResponse query(StreamName stream, String range, long k, boolean ascending, int limit, boolean consistent,
                                Map<String, AttributeValue> exclusiveStart) {
        QueryRequest.Builder q = QueryRequest.builder().tableName(table)
                .keyConditionExpression("#p = :p AND " + range)
                .expressionAttributeNames(NAMES)
                .expressionAttributeValues(Map.of(":p", AttributeValue.fromS(stream.value()),
                        ":k", AttributeValue.fromN(Long.toString(k))))
                .projectionExpression(PROJECTION)
                .scanIndexForward(ascending).limit(limit).consistentRead(consistent);
        if (exclusiveStart != null) {
            q.exclusiveStartKey(exclusiveStart);
        }
        return dynamo.query(q.build());
    }
}

package io.appendsfeed.indexer.cli;

import io.appendsfeed.indexer.cli.UsageException;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.FeedStreams;
import io.appendsfeed.model.store.StoreItems;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/**
 * What a table holds, told from a few cheap reads: an index table holds {@code $AppendsIndex-0}
 * (written when an indexer first starts on it); a store table holds event streams (names without
 * {@code $}); a new table holds nothing yet. Both are in the store format (keys {@code p}, {@code i}).
 *
 * @param example a stream the table holds, for messages (null when empty)
 */
public record TableRole(Kind kind, String table, String example) {

    public enum Kind { INDEX, STORE, EMPTY }

    /** Items looked at to tell a store from the feed's own streams; a store's first items are streams. */
    private static final int SAMPLE = 25;
    private static final AttributeValue TIP = AttributeValue.fromN(Long.toString(StoreItems.TIP_INDEX));

    /**
     * @param description the table's description, already read
     * @throws UsageException when the table is not in the store format at all
     */
    public static TableRole of(DynamoDbClient dynamo, TableDescription description, String option) {
        String table = description.tableName();
        List<KeySchemaElement> keys = description.keySchema();
        boolean storeFormat = keys.size() == 2 && keys.stream().anyMatch(k -> k.attributeName().equals("p") && k.keyTypeAsString().equals("HASH"))
                && keys.stream().anyMatch(k -> k.attributeName().equals("i") && k.keyTypeAsString().equals("RANGE"));
        if (!storeFormat) {
            throw new UsageException(option + " '" + table + "' is not an appendsfeed table: its keys are "
                    + keys.stream().map(k -> k.attributeName() + " (" + k.keyTypeAsString() + ")").toList()
                    + ", where the store format has p (HASH) and i (RANGE)");
        }
        Map<String, AttributeValue> index = dynamo.getItem(b -> b.tableName(table).consistentRead(true).projectionExpression("p")
                .key(Map.of("p", AttributeValue.fromS(FeedStreams.INDEX.value()), "i", TIP))).item();
        if (index != null && !index.isEmpty()) {
            return new TableRole(Kind.INDEX, table, FeedStreams.INDEX.value());
        }
        ScanResponse sample = dynamo.scan(b -> b.tableName(table).limit(SAMPLE).projectionExpression("p"));
        Optional<String> stream = sample.items().stream().map(i -> i.get("p")).filter(p -> p != null && p.s() != null)
                .map(AttributeValue::s).filter(p -> !p.startsWith(StreamName.RESERVED_PREFIX)).findFirst();
        if (stream.isPresent()) {
            return new TableRole(Kind.STORE, table, stream.get());
        }
        // only the feed's own streams (checkpoints written before any indexing), or nothing at all
        return sample.items().isEmpty() ? new TableRole(Kind.EMPTY, table, null)
                : new TableRole(Kind.INDEX, table, sample.items().get(0).get("p").s());
    }

    /** How it reads in a refusal. */
    public String describe() {
        return switch (kind) {
            case INDEX -> "an index table (it holds " + example + ")";
            case STORE -> "a store table (it holds event streams such as '" + example + "' and no " + FeedStreams.INDEX + ")";
            case EMPTY -> "empty";
        };
    }
}

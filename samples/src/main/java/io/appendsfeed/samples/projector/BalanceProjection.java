package io.appendsfeed.samples.projector;

import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.reader.FeedReader.CatchUpResult;
import io.appendsfeed.reader.FeedReader;
import io.appendsfeed.reader.FeedReaderConfig;
import io.appendsfeed.reader.StartPosition;
import io.appendsfeed.samples.bank.AccountId;
import java.time.Duration;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** The balance read model: the query table, kept up to date by a consumer group, and rebuilt from {@code 0_0} when needed. */
public final class BalanceProjection {

    private final DynamoDbClient dynamo;
    private final BalanceTable table;
    private final StoreClient store;
    private final String indexTable;
    private final String group;
    private final BalanceProjector projector;

    /** @param group the consumer group whose checkpoint says how far the table is */
    public BalanceProjection(DynamoDbClient dynamo, BalanceTable table, StoreClient store, String indexTable, String group) {
        this.dynamo = dynamo;
        this.table = table;
        this.store = store;
        this.indexTable = indexTable;
        this.group = group;
        this.projector = new BalanceProjector(table, store);
    }

    private FeedReaderConfig config(StartPosition start) {
        return FeedReaderConfig.builder(group, indexTable, store.config().table())
                .start(start)
                .categories(Set.of(AccountId.CATEGORY)) // other categories are skipped before their bodies are read
                .pollInterval(Duration.ofMillis(100))
                .commitInterval(Duration.ofSeconds(1))
                .build();
    }

    /** A reader that keeps the table up to date from the group's checkpoint on; start it, close it to stop. */
    public FeedReader reader() {
        return new FeedReader(dynamo, config(StartPosition.stored()), projector);
    }

    /**
     * Deletes every row, then reads the feed from the beginning (an override of the group's checkpoint) to its tail.
     * Stop the group's other readers first, or they keep writing (correct) rows meanwhile.
     *
     * @return whether it reached the tail within {@code timeout}; if not, run it again or start a reader
     */
    public CatchUpResult rebuild(Duration timeout) {
        table.clear();
        return new FeedReader(dynamo, config(StartPosition.beginning()), projector).runUntilCaughtUp(timeout);
    }
}

package com.example.orders;

import io.appendsfeed.indexer.Indexer;
import io.appendsfeed.indexer.IndexerConfig;
import io.appendsfeed.indexer.poller.PollerConfig;
import io.appendsfeed.indexer.poller.StreamsPoller;
import io.appendsfeed.model.DynamoClients;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.AppendResult;
import io.appendsfeed.model.store.EventData;
import io.appendsfeed.model.store.Expected;
import io.appendsfeed.model.store.Read;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.model.store.StoreTables;
import io.appendsfeed.model.store.StoredEvent;
import io.appendsfeed.reader.StreamHandler.FeedEvent;
import io.appendsfeed.reader.FeedReader;
import io.appendsfeed.reader.FeedReaderConfig;
import io.appendsfeed.reader.StreamHandler.HandlerResult;
import java.net.URI;
import java.util.List;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * The README's Quick start, compiled by CI: each region between a {@code // README <name>} line and
 * the next {@code // README end} is one of its code blocks, as it stands there (.ci/consumer-check).
 */
public final class QuickStart {

    private QuickStart() {}

    /** Runs the whole Quick start against DynamoDB Local on port 8000 for a minute. */
    public static void main(String[] args) throws Exception {
        // README clients
        // DynamoDB Local (java -jar DynamoDBLocal.jar -inMemory -port 8000); on AWS: DynamoClients.Settings.aws(),
        // or set AWS_ENDPOINT_URL, which the SDK reads for every client
        DynamoClients.Settings settings = DynamoClients.Settings.local(URI.create("http://localhost:8000"));
        DynamoDbClient dynamo = DynamoClients.dynamoDb(settings);
        DynamoDbStreamsClient streams = DynamoClients.streams(settings);
        StoreTables.ensure(dynamo, "orders-store", StreamViewType.NEW_IMAGE); // keys p and i, Streams on
        StoreTables.ensure(dynamo, "orders-index", null);
        // README end
        StoreClient store = new StoreClient(dynamo, StoreConfig.builder("orders-store").build());
        place(store, "42", 42);
        try (StreamsPoller poller = poller(dynamo, streams); FeedReader reader = reader(dynamo)) {
            Thread.sleep(60_000);
        }
    }

    /** Places an order: append at the version read, and on a conflict read again and decide again. */
    static boolean place(StoreClient store, String id, long total) {
        // README write
        StreamName order = StreamName.of("Order", id);
        for (int attempt = 0; attempt < 3; attempt++) {
            List<StoredEvent> history = store.readAll(order, Read.forward(0));
            if (history.stream().anyMatch(e -> e.type().equals("Placed"))) {
                return false; // decided on what is stored: placed already
            }
            AppendResult result = store.append(order, Expected.version(history.size()),
                    List.of(EventData.json("Placed", "{\"total\":" + total + "}")));
            if (result instanceof AppendResult.Written) {
                return true;
            }
            // AppendResult.Conflict: another writer appended first (a result, not an exception)
        }
        throw new IllegalStateException(order + ": still conflicting after 3 attempts");
        // README end
    }

    static StreamsPoller poller(DynamoDbClient dynamo, DynamoDbStreamsClient streams) {
        // README index
        // in AWS: the Lambda io.appendsfeed.indexer.lambda.IndexerStreamHandler (indexer/deploy/template.yaml)
        Indexer indexer = Indexer.start(dynamo, IndexerConfig.builder("orders-index").build());
        return new StreamsPoller(dynamo, streams, indexer, PollerConfig.of("orders-store")).start();
        // README end
    }

    static FeedReader reader(DynamoDbClient dynamo) {
        // README react
        FeedReaderConfig config = FeedReaderConfig.builder("order-totals", "orders-index", "orders-store")
                .eventTypes(Set.of("Placed")) // other events are filtered out before their bodies are read
                .build();
        FeedReader reader = new FeedReader(dynamo, config, (stream, events) -> {
            for (FeedEvent e : events) { // per stream in order, at least once: key effects by stream@index
                System.out.println(stream + "@" + e.index() + " " + e.type() + " " + e.dataText());
            }
            return HandlerResult.handled();
        });
        reader.start();
        return reader;
        // README end
    }
}

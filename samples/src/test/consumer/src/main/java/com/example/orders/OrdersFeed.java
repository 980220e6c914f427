package com.example.orders;

import io.appendsfeed.indexer.Indexer;
import io.appendsfeed.indexer.IndexerConfig;
import io.appendsfeed.indexer.poller.PollerConfig;
import io.appendsfeed.indexer.poller.StreamsPoller;
import io.appendsfeed.model.DynamoClients;
import io.appendsfeed.reader.StreamHandler.FeedEvent;
import io.appendsfeed.reader.FeedReader;
import io.appendsfeed.reader.FeedReaderConfig;
import io.appendsfeed.reader.StreamHandler.HandlerResult;
import java.time.Duration;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/** Indexes the orders store with the poller and prints each order's new events. */
public final class OrdersFeed {

    public static void main(String[] args) throws InterruptedException {
        DynamoClients.Settings aws = DynamoClients.Settings.aws();
        try (DynamoDbClient dynamo = DynamoClients.dynamoDb(aws);
             DynamoDbStreamsClient streams = DynamoClients.streams(aws);
             StreamsPoller poller = new StreamsPoller(dynamo, streams,
                     Indexer.start(dynamo, IndexerConfig.builder("orders-index").build()),
                     PollerConfig.of("orders-store")).start();
             FeedReader reader = new FeedReader(dynamo,
                     FeedReaderConfig.builder("order-printer", "orders-index", "orders-store").build(),
                     (stream, events) -> {
                         for (FeedEvent e : events) {
                             System.out.println(stream + "@" + e.index() + " " + e.type() + " " + e.dataText());
                         }
                         return HandlerResult.handled();
                     })) {
            reader.start();
            Thread.sleep(Duration.ofMinutes(1).toMillis());
        }
    }
}

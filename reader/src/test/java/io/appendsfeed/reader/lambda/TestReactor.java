package io.appendsfeed.reader.lambda;

import io.appendsfeed.reader.FeedReaderConfig;
import io.appendsfeed.reader.StreamHandler;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** Test support: a reactor function as a user writes one, given its client, settings and configuration. */
public final class TestReactor extends ReactorHandler {
    public TestReactor(DynamoDbClient dynamo, ReactorSettings settings, FeedReaderConfig config, StreamHandler handler) {
        super(dynamo, settings, config, handler);
    }
}

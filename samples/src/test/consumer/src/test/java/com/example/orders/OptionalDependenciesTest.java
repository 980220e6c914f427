package com.example.orders;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** What an SDK user gets on the classpath from the README's dependency block, and what stays out. */
class OptionalDependenciesTest {

    @Test
    void the_sdks_and_the_readme_snippet_load() {
        assertDoesNotThrow(() -> Class.forName("io.appendsfeed.reader.FeedReader"));
        assertDoesNotThrow(() -> Class.forName("io.appendsfeed.indexer.poller.StreamsPoller"));
        assertDoesNotThrow(() -> Class.forName("io.appendsfeed.model.store.StoreClient"));
        assertDoesNotThrow(() -> Class.forName(OrdersFeed.class.getName()));
    }

    @Test
    void picocli_the_lambda_libraries_kcl_and_s3_stay_out() {
        for (String absent : new String[] {"picocli.CommandLine", "com.amazonaws.services.lambda.runtime.RequestHandler",
            "com.amazonaws.services.lambda.runtime.events.DynamodbEvent", "software.amazon.kinesis.coordinator.Scheduler",
            "software.amazon.awssdk.services.s3.S3Client", "org.slf4j.simple.SimpleLogger"}) {
            assertThrows(ClassNotFoundException.class, () -> Class.forName(absent), absent + " reached an SDK user's classpath");
        }
    }
}

package io.appendsfeed.indexer.deploy;

import io.appendsfeed.indexer.settings.IndexerSettings;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.appendsfeed.indexer.FeedReadback;
import io.appendsfeed.indexer.lambda.LambdaSettings;
import io.appendsfeed.model.DynamoClients;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.EventData;
import io.appendsfeed.model.store.Expected;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.model.store.StoreTables;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.testcontainers.containers.localstack.LocalStackContainer;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.utility.DockerImageName;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.lambda.model.EventSourcePosition;
import software.amazon.awssdk.services.lambda.model.FunctionResponseType;
import software.amazon.awssdk.services.lambda.model.Runtime;

/**
 * End to end on LocalStack: the Lambda jar deployed as a function, subscribed to a store table's
 * stream with the template's event source mapping settings; events appended to the store appear in
 * the index, in order. Opt-in (it pulls the LocalStack and Lambda Java images): run where Docker is,
 * {@code mvn -B -ntp -pl indexer -am verify -Dlocalstack=true -Dit.test=LocalStackLambdaIT
 * -Dtest=NONE -Dsurefire.failIfNoSpecifiedTests=false}. Without Docker it is skipped.
 */
@Testcontainers(disabledWithoutDocker = true)
@EnabledIfSystemProperty(named = "localstack", matches = "true")
class LocalStackLambdaIT {

    private static final String LAMBDA_ENDPOINT_INSIDE_LOCALSTACK = "http://localhost.localstack.cloud:4566";

    @Container
    private static final LocalStackContainer LOCALSTACK = new LocalStackContainer(DockerImageName.parse("localstack/localstack:3.8"))
            .withServices(LocalStackContainer.Service.DYNAMODB, LocalStackContainer.Service.LAMBDA)
            .withEnv("LAMBDA_RUNTIME_ENVIRONMENT_TIMEOUT", "120");

    @Test
    void events_appended_to_the_store_reach_the_index_through_the_deployed_function() throws IOException {
        SdkBytes jar = SdkBytes.fromByteArray(Files.readAllBytes(LambdaJarIT.lambdaJar()));
        URI endpoint = LOCALSTACK.getEndpoint();
        Region region = Region.of(LOCALSTACK.getRegion());
        var credentials = StaticCredentialsProvider.create(AwsBasicCredentials.create(LOCALSTACK.getAccessKey(), LOCALSTACK.getSecretKey()));
        DeployTemplate template = DeployTemplate.load();
        JsonNode function = template.properties("IndexerFunction");
        JsonNode esm = function.path("Events").path("StoreStream").path("Properties");

        try (DynamoDbClient dynamo = DynamoClients.dynamoDb(new DynamoClients.Settings(Optional.of(endpoint), Optional.of(region),
                     Optional.of(credentials), 8, null, 0));
             LambdaClient lambda = LambdaClient.builder().endpointOverride(endpoint).region(region).credentialsProvider(credentials)
                     .httpClientBuilder(ApacheHttpClient.builder()).build()) {
            StoreTables.ensure(dynamo, "store", StreamViewType.NEW_IMAGE);
            StoreTables.ensure(dynamo, "index", null);
            String streamArn = dynamo.describeTable(b -> b.tableName("store")).table().latestStreamArn();

            lambda.createFunction(b -> b.functionName("indexer").runtime(Runtime.fromValue(template.resolve(function.path("Runtime"))))
                    .handler(function.path("Handler").asText())
                    .role("arn:aws:iam::000000000000:role/appendsfeed-indexer")
                    .memorySize(Integer.parseInt(template.resolve(function.path("MemorySize"))))
                    .timeout(Integer.parseInt(template.resolve(function.path("Timeout"))))
                    .environment(e -> e.variables(Map.of(IndexerSettings.INDEX_TABLE, "index", IndexerSettings.STORE_TABLE, "store",
                            IndexerSettings.ENDPOINT, LAMBDA_ENDPOINT_INSIDE_LOCALSTACK,
                            "JAVA_TOOL_OPTIONS", template.resolve(function.path("Environment").path("Variables").path("JAVA_TOOL_OPTIONS")))))
                    .code(c -> c.zipFile(jar)));
            lambda.waiter().waitUntilFunctionActiveV2(b -> b.functionName("indexer"));

            // the template's mapping, less the on-failure queue (no SQS in this container)
            String uuid = lambda.createEventSourceMapping(b -> b.functionName("indexer").eventSourceArn(streamArn)
                    .startingPosition(EventSourcePosition.fromValue(esm.path("StartingPosition").asText()))
                    .batchSize(Integer.parseInt(template.resolve(esm.path("BatchSize"))))
                    .maximumBatchingWindowInSeconds(Integer.parseInt(template.resolve(esm.path("MaximumBatchingWindowInSeconds"))))
                    .parallelizationFactor(esm.path("ParallelizationFactor").asInt())
                    .functionResponseTypes(FunctionResponseType.REPORT_BATCH_ITEM_FAILURES)
                    .bisectBatchOnFunctionError(esm.path("BisectBatchOnFunctionError").asBoolean())
                    .maximumRetryAttempts(Integer.parseInt(template.resolve(esm.path("MaximumRetryAttempts"))))
                    .maximumRecordAgeInSeconds(esm.path("MaximumRecordAgeInSeconds").asInt())).uuid();
            await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofSeconds(1))
                    .until(() -> lambda.getEventSourceMapping(b -> b.uuid(uuid)).state(), "Enabled"::equals);

            StoreClient store = new StoreClient(dynamo, StoreConfig.builder("store").build());
            for (int round = 0; round < 2; round++) {
                for (int k = 0; k < 10; k++) {
                    store.append(StreamName.of("Order", Integer.toString(k)), Expected.version(round),
                            List.of(EventData.json(round == 0 ? "Placed" : "Paid", "{}")));
                }
            }

            FeedReadback feed = new FeedReadback(dynamo, "index", 1);
            await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofSeconds(2))
                    .untilAsserted(() -> assertThat(feed.streams()).hasSize(10)
                            .allSatisfy((stream, types) -> assertThat(types).containsExactly("Placed", "Paid")));
        }
    }
}

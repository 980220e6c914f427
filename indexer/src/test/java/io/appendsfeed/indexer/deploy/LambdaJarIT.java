package io.appendsfeed.indexer.deploy;

import io.appendsfeed.indexer.settings.IndexerSettings;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.appendsfeed.indexer.FeedReadback;
import io.appendsfeed.indexer.IndexerTables;
import io.appendsfeed.indexer.StreamRecords;
import io.appendsfeed.indexer.lambda.LambdaSettings;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.EventData;
import io.appendsfeed.model.store.Expected;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.model.Record;

/**
 * The Lambda jar as built by {@code package} (so a failsafe integration test): what is in it, and a
 * cold start of it in a fresh JVM against DynamoDB Local, timed. The figures go to
 * {@code target/lambda-cold-start.txt} and the README; they are measured, never asserted.
 */
@ExtendWith(LocalDynamoExtension.class)
class LambdaJarIT {

    static final int RECORDS = 100;
    /** The template's handler. */
    private static final String HANDLER = "io.appendsfeed.indexer.lambda.IndexerStreamHandler";

    /** Classes that must never be shipped: local-only, KCL, test libraries, the async HTTP stack. */
    private static final List<String> FORBIDDEN = List.of(
            "com/amazonaws/services/dynamodbv2/", "com/almworks/sqlite4java/", "software/amazon/dynamodb/",
            "software/amazon/kinesis/", "com/amazonaws/services/dynamodbv2/streamsadapter/", "software/amazon/awssdk/services/kinesis/",
            "software/amazon/awssdk/services/cloudwatch/", "software/amazon/awssdk/services/lambda/", "software/amazon/awssdk/http/nio/",
            "software/amazon/awssdk/crt/", "software/amazon/eventstream/", "io/netty/", "org/junit/", "junit/", "org/assertj/",
            "net/jqwik/", "org/awaitility/", "org/testcontainers/", "org/yaml/", "com/fasterxml/jackson/dataformat/",
            "io/appendsfeed/indexer/deploy/", "io/appendsfeed/model/testing/", "org/mockito/", "io/micrometer/",
            // the other sources of the indexer
            "io/appendsfeed/indexer/kcl/", "io/appendsfeed/indexer/backfill/", "io/appendsfeed/indexer/poller/");

    static Path lambdaJar() {
        String path = System.getProperty("lambda.jar");
        assertThat(path).as("system property lambda.jar, set by the build (failsafe systemPropertyVariables)").isNotBlank();
        Path jar = Path.of(path);
        assertThat(jar).as("the Lambda jar; `mvn package` builds it").isRegularFile();
        return jar;
    }

    @Test
    void lambda_jar_holds_the_handler_and_its_dependencies_and_nothing_local_or_test_only() throws IOException {
        Path jar = lambdaJar();
        List<String> entries = new ArrayList<>();
        try (JarFile file = new JarFile(jar.toFile())) {
            file.stream().map(ZipEntry::getName).forEach(entries::add);
        }
        assertThat(entries).contains("io/appendsfeed/indexer/lambda/IndexerStreamHandler.class",
                "io/appendsfeed/indexer/lambda/LambdaEvent.class",
                "io/appendsfeed/model/store/StoreClient.class",
                "io/appendsfeed/indexer/notifier/NotifierHandler.class",
                "software/amazon/awssdk/services/sns/SnsClient.class",
                "software/amazon/awssdk/services/dynamodb/DynamoDbClient.class",
                "software/amazon/awssdk/http/apache/ApacheHttpClient.class",
                "com/amazonaws/services/lambda/runtime/events/DynamodbEvent.class",
                "com/amazonaws/services/lambda/runtime/events/StreamsEventResponse.class",
                "org/brotli/dec/BrotliInputStream.class",
                "io/appendsfeed/indexer/lambda/logging/LambdaLoggingProvider.class",
                "io/appendsfeed/model/metrics/EmfMetrics.class",
                "org/joda/time/DateTime.class",
                "META-INF/services/org.slf4j.spi.SLF4JServiceProvider");
        assertThat(entries).as("one logging binding: ours").noneMatch(e -> e.startsWith("org/slf4j/simple/"));
        try (JarFile file = new JarFile(jar.toFile())) {
            assertThat(new String(file.getInputStream(file.getEntry("META-INF/services/org.slf4j.spi.SLF4JServiceProvider"))
                    .readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).strip())
                    .isEqualTo("io.appendsfeed.indexer.lambda.logging.LambdaLoggingProvider");
        }
        for (String prefix : FORBIDDEN) {
            assertThat(entries).as("entries under " + prefix).noneMatch(e -> e.startsWith(prefix));
        }
        assertThat(entries).as("jar signatures of shaded dependencies").noneMatch(e -> e.matches("META-INF/[^/]+\\.(SF|DSA|RSA)"));
        assertThat(entries).as("event types other than the DynamoDB stream's")
                .filteredOn(e -> e.startsWith("com/amazonaws/services/lambda/runtime/events/") && e.endsWith(".class"))
                .allMatch(e -> e.contains("/DynamodbEvent") || e.contains("/StreamsEventResponse") || e.contains("/models/dynamodb/"));
        // Lambda's limit for a directly uploaded deployment package
        assertThat(Files.size(jar)).isLessThan(50L * 1024 * 1024);
        System.out.printf("Lambda jar: %s, %.1f MB, %d entries%n", jar.getFileName(), Files.size(jar) / 1048576.0, entries.size());
    }

    @Test
    void lambda_jar_cold_starts_in_a_fresh_jvm_and_indexes_a_batch(LocalDynamo local, @TempDir Path dir) throws Exception {
        String store = IndexerTables.store(local);
        String index = IndexerTables.index(local);
        StoreClient writer = new StoreClient(local.dynamo(), StoreConfig.builder(store).build());
        for (int k = 0; k < RECORDS; k++) {
            writer.append(StreamName.of("Order", Integer.toString(k)), Expected.any(), List.of(EventData.json("Placed", "{\"n\":" + k + "}")));
        }
        List<Record> records = StreamRecords.all(local.dynamo(), local.streams(), store);
        assertThat(records).hasSize(RECORDS);
        String arn = local.dynamo().describeTable(b -> b.tableName(store)).table().latestStreamArn();
        Path batch = write(dir.resolve("batch.json"), AwsEventJson.event(records, arn));
        // a second invocation: the same batch again (nothing new) and then a record with no "n" (rejected)
        ObjectNode again = AwsEventJson.event(records, arn);
        ObjectNode poison = (ObjectNode) again.withArray("Records").get(RECORDS - 1);
        ((ObjectNode) poison.path("dynamodb").path("NewImage")).remove("n");
        Path second = write(dir.resolve("again.json"), again);

        List<String> report = new ArrayList<>();
        List<String> c1 = List.of("-XX:+TieredCompilation", "-XX:TieredStopAtLevel=1");
        for (var run : List.of(Map.entry(HANDLER, c1), Map.entry(HANDLER, List.<String>of()))) {
            List<String> flags = run.getValue();
            String freshIndex = IndexerTables.index(local);
            List<String> out = run(dir, run.getKey(), flags, store, freshIndex, local, batch, second);
            assertThat(out).hasSize(4);
            assertThat(out.get(0)).startsWith("main ");
            assertThat(out.get(1)).startsWith("constructed ");
            String[] first = out.get(2).split(" ", 4);
            String[] next = out.get(3).split(" ", 4);
            assertThat(DeployTemplate.json(first[3])).isEqualTo(DeployTemplate.json("{\"batchItemFailures\":[]}"));
            String poisonSequence = poison.path("dynamodb").path("SequenceNumber").asText();
            assertThat(DeployTemplate.json(next[3])).isEqualTo(DeployTemplate.json(
                    "{\"batchItemFailures\":[{\"itemIdentifier\":\"" + poisonSequence + "\"}]}"));
            assertThat(new FeedReadback(local.dynamo(), freshIndex, 1).streams()).hasSize(RECORDS);
            report.add(String.format("%s, flags %s: JVM up (main) at %s ms, handler constructed at %s ms, first batch of %d records"
                    + " handled at %s ms (%s ms for the invocation), second invocation %s ms",
                    run.getKey().substring(run.getKey().lastIndexOf('.') + 1), flags.isEmpty() ? "(JVM defaults)" : String.join(" ", flags),
                    out.get(0).split(" ")[1], out.get(1).split(" ")[1], RECORDS, first[1], first[2], next[2]));
        }
        Files.write(Path.of("target", "lambda-cold-start.txt"), report);
        report.forEach(System.out::println);
    }

    private static List<String> run(Path dir, String handler, List<String> flags, String store, String index, LocalDynamo local, Path... events)
            throws IOException, InterruptedException, URISyntaxException {
        Path main = dir.resolve("main");
        Path target = main.resolve("io/appendsfeed/indexer/deploy/ColdStartMain.class");
        Files.createDirectories(target.getParent());
        Files.copy(Path.of(ColdStartMain.class.getResource("ColdStartMain.class").toURI()), target, StandardCopyOption.REPLACE_EXISTING);
        String classPath = String.join(File.pathSeparator, lambdaJar().toString(), main.toString());

        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(flags);
        command.add("-Xmx512m");
        command.add("-DspawnedAt=" + System.currentTimeMillis());
        command.addAll(List.of("-cp", classPath, ColdStartMain.class.getName(), handler));
        for (Path e : events) {
            command.add(e.toString());
        }
        ProcessBuilder pb = new ProcessBuilder(command).redirectError(dir.resolve("stderr-" + index + ".txt").toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("APPENDS_") || k.startsWith("JAVA_") || k.startsWith("AWS_"));
        pb.environment().put(IndexerSettings.INDEX_TABLE, index);
        pb.environment().put(IndexerSettings.STORE_TABLE, store);
        pb.environment().put(IndexerSettings.ENDPOINT, local.endpoint().toString());
        pb.environment().put(IndexerSettings.REGION, "us-east-1");
        Process p = pb.start();
        p.getOutputStream().close();
        String stdout = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String stderr = Files.readString(dir.resolve("stderr-" + index + ".txt"));
        assertThat(p.exitValue()).as("exit of the Lambda jar's JVM; stderr:%n%s", stderr).isZero();
        return stdout.lines().filter(l -> l.startsWith("main ") || l.startsWith("constructed ") || l.startsWith("handled ")).toList();
    }

    private static Path write(Path file, JsonNode json) throws IOException {
        Files.writeString(file, json.toString());
        return file;
    }
}

package io.appendsfeed.indexer.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;

/**
 * The two CLI jars as built by {@code package}: the default one, for operators who inspect and move
 * the feed, without KCL (and under 30 MB), and the {@code -kcl} one with the KCL worker; and the
 * reader's jar, which holds no CLI. Each run as
 * an operator runs it, {@code java -jar}. Sizes are printed, and bounded only where the README
 * promises a bound.
 */
class CliJarIT {

    static Path jar(String property) {
        String path = System.getProperty(property);
        assertThat(path).as("system property %s, set by the build (failsafe systemPropertyVariables)", property).isNotBlank();
        Path jar = Path.of(path);
        assertThat(jar).as("`mvn package` builds it").isRegularFile();
        return jar;
    }

    static List<String> entries(Path jar) throws IOException {
        List<String> entries = new ArrayList<>();
        try (JarFile file = new JarFile(jar.toFile())) {
            file.stream().map(ZipEntry::getName).forEach(entries::add);
        }
        return entries;
    }

    /** Runs {@code java -jar jar args}; returns {exit code, output}. */
    static Object[] run(Path jar, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar", jar.toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("exits").isTrue();
        return new Object[] {p.exitValue(), output};
    }

    @Test
    void the_default_cli_jar_leaves_kcl_out_and_says_where_feed_kcl_is() throws Exception {
        Path jar = jar("cli.jar");
        List<String> entries = entries(jar);
        assertThat(entries).contains("io/appendsfeed/indexer/cli/FeedCli.class", "io/appendsfeed/indexer/cli/VerifyCommand.class",
                "picocli/CommandLine.class", "software/amazon/awssdk/services/s3/S3Client.class",
                "software/amazon/awssdk/services/dynamodb/DynamoDbClient.class");
        for (String absent : List.of("software/amazon/kinesis/", "com/amazonaws/services/dynamodbv2/streamsadapter/", "org/apache/kafka/",
                "scala/", "kotlin/", "io/netty/", "com/github/luben/", "org/xerial/snappy/")) {
            assertThat(entries).as("entries under " + absent).noneMatch(e -> e.startsWith(absent));
        }
        long size = Files.size(jar);
        System.out.printf("CLI jar: %s, %.1f MB%n", jar.getFileName(), size / 1048576.0);
        assertThat(size).as("what an operator who inspects the feed downloads").isLessThan(30L * 1024 * 1024);

        Object[] help = run(jar, "--help");
        assertThat(help[0]).isEqualTo(0);
        assertThat((String) help[1]).contains("checkpoints", "epochs", "verify", "backfill", "poll", "kcl");
        Object[] backfillHelp = run(jar, "backfill", "--help");
        assertThat(backfillHelp[0]).as("%s", backfillHelp[1]).isEqualTo(0);

        Object[] kcl = run(jar, "kcl", "--store-table", "orders-store", "--index-table", "orders-index");
        assertThat(kcl[0]).as("%s", kcl[1]).isEqualTo(2);
        assertThat(((String) kcl[1]).strip()).as("one line").doesNotContain("\n")
                .contains("appendsfeed-indexer-<version>-kcl.jar").contains("feed poll");
    }

    @Test
    void the_reader_jar_is_the_sdk_only() throws Exception {
        List<String> entries = entries(jar("reader.jar"));
        assertThat(entries).contains("io/appendsfeed/reader/FeedReader.class");
        assertThat(entries).as("a reactor that depends on the reader gets no CLI").noneMatch(e -> e.contains("/cli/") || e.startsWith("picocli/"));
    }

    @Test
    void the_kcl_jar_carries_the_kcl_worker() throws Exception {
        Path jar = jar("kcl.jar");
        assertThat(entries(jar)).contains("software/amazon/kinesis/coordinator/Scheduler.class", "io/appendsfeed/indexer/cli/FeedCli.class");
        System.out.printf("KCL CLI jar: %s, %.1f MB%n", jar.getFileName(), Files.size(jar) / 1048576.0);
        Object[] help = run(jar, "kcl", "--help");
        assertThat(help[0]).as("%s", help[1]).isEqualTo(0);
        assertThat((String) help[1]).contains("--application");
    }
}

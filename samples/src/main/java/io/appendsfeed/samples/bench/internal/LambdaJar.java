package io.appendsfeed.samples.bench.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The indexer's shaded Lambda jar and how the SAM template runs it: the template's
 * {@code JavaToolOptions} default as {@code JAVA_TOOL_OPTIONS} (as Lambda passes it) and its
 * {@code MemorySize} default (what a GB-second is billed at). {@link HandlerDriver} runs it in a
 * fresh JVM, with the collector the Lambda Java runtime starts the JVM with.
 *
 * @param javaToolOptions e.g. {@code -XX:+TieredCompilation -XX:TieredStopAtLevel=1}
 * @param memoryMb the function's memory, MB
 */
public record LambdaJar(Path jar, Path template, String javaToolOptions, int memoryMb) {

    /** The driver JVM's heap: under the template's 1,024 MB, which the whole process shares. */
    public static final String HEAP = "-Xmx512m";
    /** The Lambda Java runtime's collector (seen on a running function's command line); here the JVM would pick G1. */
    public static final String RUNTIME_GC = "-XX:+UseSerialGC";
    /** Generous: 100,000 events' records at a few hundred records per second still fit. */
    public static final Duration TIMEOUT = Duration.ofMinutes(30);

    /**
     * @throws IllegalArgumentException when the jar or the template is missing, or the template has no
     *         {@code Parameters.JavaToolOptions.Default} or {@code Parameters.MemorySize.Default}
     */
    public static LambdaJar locate(Path jar, Path template) {
        if (jar == null || !Files.isRegularFile(jar)) {
            throw new IllegalArgumentException("the Lambda jar " + jar + " is missing: 'mvn -B -q -pl samples -am package"
                    + " -DskipTests' builds it (the indexer module's package phase), or pass --lambda-jar");
        }
        if (template == null || !Files.isRegularFile(template)) {
            throw new IllegalArgumentException("the SAM template " + template + " is missing: pass --lambda-template indexer/deploy/template.yaml");
        }
        JsonNode root;
        try {
            root = new ObjectMapper(new YAMLFactory()).readTree(template.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("the SAM template " + template + " is not readable YAML: " + e.getMessage(), e);
        }
        JsonNode flags = root.at("/Parameters/JavaToolOptions/Default");
        JsonNode memory = root.at("/Parameters/MemorySize/Default");
        if (!flags.isTextual() || !memory.canConvertToInt()) {
            throw new IllegalArgumentException("the SAM template " + template + " has no Parameters.JavaToolOptions.Default"
                    + " or Parameters.MemorySize.Default");
        }
        // absolute: the driver JVM runs in another directory
        return new LambdaJar(jar.toAbsolutePath().normalize(), template.toAbsolutePath().normalize(), flags.asText(), memory.asInt());
    }

    /**
     * Our handler over every {@code batch-*.json} of {@code batchDir}, in a fresh JVM.
     *
     * @param jvmFlags {@code JAVA_TOOL_OPTIONS}, e.g. {@link #javaToolOptions()}; empty for the JVM's defaults
     * @param metered {@code true}: every call's capacity summed per batch; {@code false}: built exactly as Lambda builds it
     * @throws Processes.ProcessFailedException when the driver fails (a batch not ingested whole exits 3)
     */
    public HandlerRun run(String jvmFlags, boolean metered, Path batchDir, Path work, URI endpoint, String storeTable, String indexTable) {
        Map<String, String> env = Processes.cleanEnv();
        env.putAll(Map.of("APPENDS_INDEX_TABLE", indexTable, "APPENDS_STORE_TABLE", storeTable,
                "APPENDS_DYNAMODB_ENDPOINT", endpoint.toString(), "AWS_REGION", "us-east-1"));
        env.put("JAVA_TOOL_OPTIONS", jvmFlags.isBlank() ? null : jvmFlags);
        Path out = work.resolve("appendsfeed-" + indexTable + ".json");
        String classPath = String.join(File.pathSeparator, jar.toString(), codeSource(HandlerDriver.class).toString());
        List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), HEAP, RUNTIME_GC,
                "-cp", classPath, HandlerDriver.class.getName(), metered ? "metered" : "plain", batchDir.toString(), out.toString());
        env.put("BENCH_SPAWNED_AT", Long.toString(System.currentTimeMillis()));
        Processes.run(command, work, env, work.resolve("appendsfeed-" + indexTable + ".log"), TIMEOUT);
        return HandlerRun.parse(out);
    }

    private static Path codeSource(Class<?> c) {
        try {
            return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException("class path entry of " + c.getName() + " is not a path: " + e.getMessage(), e);
        }
    }
}

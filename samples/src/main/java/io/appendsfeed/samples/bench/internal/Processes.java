package io.appendsfeed.samples.bench.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** The benchmark's child processes, each run to completion with its output to a log: our handler's JVM, equinox-js's node. */
public final class Processes {

    /** Generous: 100,000 events' records at a few hundred records per second still fit. */
    static final Duration TIMEOUT = Duration.ofMinutes(60);

    private Processes() {
    }

    /** @throws IllegalStateException when it exits non-zero or outlives {@link #TIMEOUT}, with the end of its log */
    static void run(List<String> command, Path dir, Map<String, String> env, Path log) {
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("AWS_") || k.startsWith("APPENDS_") || k.startsWith("JAVA_")
                || k.equals("_JAVA_OPTIONS") || k.equals("JDK_JAVA_OPTIONS") || k.startsWith("PEER_") || k.equals("NODE_OPTIONS"));
        pb.environment().putAll(env);
        pb.environment().put("AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED", "true");
        pb.environment().put("BENCH_SPAWNED_AT", Long.toString(System.currentTimeMillis()));
        String what = String.join(" ", command);
        try {
            Files.createDirectories(log.getParent());
            Process p = pb.start();
            p.getOutputStream().close();
            boolean ended = p.waitFor(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            if (!ended || p.exitValue() != 0) {
                p.destroyForcibly();
                List<String> lines = Files.readAllLines(log);
                throw new IllegalStateException((ended ? "exit " + p.exitValue() : "did not end within " + TIMEOUT) + ": " + what
                        + " (log " + log + ")\n" + String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size())));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not run " + what + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for " + what, e);
        }
    }

    /** {@code node --version}, or null when node is not on the PATH. */
    public static String nodeVersion() {
        try {
            Process p = new ProcessBuilder("node", "--version").redirectErrorStream(true).start();
            String version = new String(p.getInputStream().readAllBytes()).trim();
            return p.waitFor() == 0 ? version : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    static <T> T json(Path file, Class<T> type) {
        try {
            return new ObjectMapper().readValue(file.toFile(), type);
        } catch (IOException e) {
            throw new UncheckedIOException("unreadable " + file + ": " + e.getMessage(), e);
        }
    }

    /** The shaded Lambda jar with the template's {@code JavaToolOptions} and {@code MemorySize} (what a GB-second is billed at). */
    public record LambdaJar(Path jar, Path template, String javaToolOptions, int memoryMb) {

        /** The driver JVM's heap: under the template's 1,024 MB, which the whole process shares. */
        public static final String HEAP = "-Xmx512m";
        /** The Lambda Java runtime's collector (seen on a running function's command line); here the JVM would pick G1. */
        public static final String RUNTIME_GC = "-XX:+UseSerialGC";

        /** @throws IllegalArgumentException when the jar or the template is missing, or the template lacks either default */
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
         * @param jvmFlags {@code JAVA_TOOL_OPTIONS}; empty for the JVM's defaults
         * @param metered {@code true}: capacity summed per batch; {@code false}: built exactly as Lambda builds it
         * @param batchSize the mapping's, as the template passes it
         */
        public HandlerDriver.Run run(String jvmFlags, boolean metered, Path batchDir, Path work, URI endpoint, String storeTable,
                                     String indexTable, int batchSize) {
            Map<String, String> env = new HashMap<>(Map.of("APPENDS_INDEX_TABLE", indexTable, "APPENDS_STORE_TABLE", storeTable,
                    "APPENDS_DYNAMODB_ENDPOINT", endpoint.toString(), "AWS_REGION", "us-east-1",
                    "APPENDS_LAMBDA_BATCH_SIZE", Integer.toString(batchSize)));
            if (!jvmFlags.isBlank()) {
                env.put("JAVA_TOOL_OPTIONS", jvmFlags);
            }
            Path out = work.resolve("appendsfeed-" + indexTable + ".json");
            // the benchmark's own classes beside the jar: the driver loads only HandlerDriver, its Run and Meter from them
            String classPath = jar + File.pathSeparator
                    + Path.of(URI.create(HandlerDriver.class.getProtectionDomain().getCodeSource().getLocation().toString()));
            Processes.run(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), HEAP, RUNTIME_GC, "-cp", classPath,
                    HandlerDriver.class.getName(), metered ? "metered" : "plain", batchDir.toString(), out.toString()),
                    work, env, work.resolve("appendsfeed-" + indexTable + ".log"));
            return json(out, HandlerDriver.Run.class);
        }
    }

    /** equinox-js's harness, copied under the work directory (the source may be read-only) with our driver beside it. */
    public record PeerHarness(Path dir, String nodeVersion) {

        private static final String DRIVER = "lambda-batches.mjs";
        private static final Set<String> NOT_COPIED = Set.of("node_modules", "out", "target");

        /** @throws IllegalStateException when node is not installed, or {@code peerDir} is no harness */
        public static PeerHarness prepare(Path peerDir, Path work) {
            String node = Processes.nodeVersion();
            if (node == null) {
                throw new IllegalStateException("node is not on the PATH: the peer scenario runs equinox-js on Node.js 20 or later");
            }
            Path from = peerDir.toAbsolutePath().normalize();
            if (!Files.isRegularFile(from.resolve("peer.mjs")) || !Files.isRegularFile(from.resolve("package.json"))) {
                throw new IllegalStateException("--peer-dir " + from + " has no peer.mjs and package.json: give the directory of"
                        + " the equinox-js harness (see samples/BENCHMARKS.md)");
            }
            Path dir = work.toAbsolutePath().resolve("peer");
            try (Stream<Path> files = Files.walk(from)) {
                for (Path f : files.filter(f -> !NOT_COPIED.contains(from.relativize(f).getName(0).toString())).toList()) {
                    Path to = dir.resolve(from.relativize(f).toString());
                    if (Files.isDirectory(f)) {
                        Files.createDirectories(to);
                    } else {
                        Files.copy(f, to, StandardCopyOption.REPLACE_EXISTING);
                        to.toFile().setWritable(true, true);
                    }
                }
                try (InputStream s = PeerHarness.class.getResourceAsStream("/io/appendsfeed/samples/bench/peer/" + DRIVER)) {
                    Files.copy(s, dir.resolve(DRIVER), StandardCopyOption.REPLACE_EXISTING);
                }
                Path modules = dir.resolve("node_modules");
                if (Files.isDirectory(from.resolve("node_modules")) && !Files.exists(modules)) {
                    Files.createSymbolicLink(modules, from.resolve("node_modules"));
                } else if (!Files.isDirectory(modules.resolve("@equinox-js/dynamo-store-indexer-lambda"))) {
                    Processes.run(List.of("npm", "ci", "--no-audit", "--no-fund"), dir, Map.of(), work.resolve("npm-ci.log"));
                }
            } catch (IOException e) {
                throw new UncheckedIOException("could not prepare the equinox-js harness from " + from + " in " + dir + ": " + e.getMessage(), e);
            }
            return new PeerHarness(dir, node);
        }

        /** {@code node peer.mjs write} (seed 42, 8 writers); returns its manifest ({@code events}, {@code appends}, {@code write.wcu}). */
        public JsonNode write(URI endpoint, String storeTable, long events, int streams, Path out) {
            Processes.run(List.of("node", "peer.mjs", "write", "--events", Long.toString(events), "--streams", Integer.toString(streams),
                    "--seed", "42", "--concurrency", "8", "--fresh"), dir, env(endpoint, storeTable, "peer-unused-index", out),
                    out.resolve("write.log"));
            return json(out.resolve("manifest.json"), JsonNode.class);
        }

        /** equinox-js's reader to the tail, index only and with bodies, each checked against {@code manifest}. */
        public JsonNode read(URI endpoint, String storeTable, String indexTable, Path manifest, Path out) {
            try {
                Files.createDirectories(out);
                Files.copy(manifest, out.resolve("manifest.json"), StandardCopyOption.REPLACE_EXISTING);
            } catch (IOException e) {
                throw new UncheckedIOException("could not set up " + out + ": " + e.getMessage(), e);
            }
            Processes.run(List.of("node", "peer.mjs", "read", "--mode", "both"), dir, env(endpoint, storeTable, indexTable, out),
                    out.resolve("read.log"));
            return json(out.resolve("read-result.json"), JsonNode.class);
        }

        /** The batch files in {@code batchDir}, one at a time, to equinox-js's Lambda handler in a fresh node process. */
        public HandlerDriver.Run index(Path batchDir, Path work, URI endpoint, String indexTable) {
            Map<String, String> env = Map.of("INDEX_TABLE_NAME", indexTable, "AWS_ENDPOINT_URL", endpoint.toString(),
                    "AWS_ENDPOINT_URL_DYNAMODB", endpoint.toString(), "AWS_REGION", "us-east-1", "AWS_ACCESS_KEY_ID", "local",
                    "AWS_SECRET_ACCESS_KEY", "local");
            Path out = work.toAbsolutePath().resolve("equinox-js-" + indexTable + ".json");
            Processes.run(List.of("node", "--import", "tsx", DRIVER, batchDir.toAbsolutePath().toString(), out.toString()), dir, env,
                    work.resolve("equinox-js-" + indexTable + ".log"));
            return json(out, HandlerDriver.Run.class);
        }

        private static Map<String, String> env(URI endpoint, String storeTable, String indexTable, Path out) {
            return Map.of("PEER_DDB_ENDPOINT", endpoint.toString(), "PEER_STORE_TABLE", storeTable, "PEER_INDEX_TABLE", indexTable,
                    "PEER_OUT", out.toAbsolutePath().toString());
        }
    }
}

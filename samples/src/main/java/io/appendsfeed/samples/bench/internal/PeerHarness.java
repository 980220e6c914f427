package io.appendsfeed.samples.bench.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * equinox-js, driven from the benchmark, which does not ship it: {@code --peer-dir} names a harness (a
 * {@code package.json} installing the equinox-js 1.2.0 packages and {@code tsx}, a {@code peer.mjs}).
 * Its {@code node peer.mjs write} writes the store with equinox-js's {@code DynamoStore}; its
 * {@code node peer.mjs read --mode both} reads an index with {@code DynamoStoreSource}, index only and
 * with bodies, capacity metered. Our own driver, {@code lambda-batches.mjs} (in the resources), hands
 * equinox-js's Lambda handler the same batch files as ours gets, timing each call. The harness is copied
 * under the work directory (without {@code node_modules}, {@code out}, {@code target}) with the driver
 * beside it; its {@code node_modules} are linked, or installed there with {@code npm ci} when it has none.
 */
public final class PeerHarness {

    private static final String DRIVER = "lambda-batches.mjs";
    private static final Duration NPM_TIMEOUT = Duration.ofMinutes(15);
    private static final Duration RUN_TIMEOUT = Duration.ofMinutes(60);
    private static final Set<String> NOT_COPIED = Set.of("node_modules", "out", "target");

    private final Path dir;
    private final String nodeVersion;

    private PeerHarness(Path dir, String nodeVersion) {
        this.dir = dir;
        this.nodeVersion = nodeVersion;
    }

    /** Whether {@code node} is on the PATH. */
    public static boolean nodeInstalled() {
        return Processes.output("node", "--version") != null;
    }

    /**
     * @throws IllegalStateException when node is not installed, or {@code npm ci} fails
     * @throws IllegalArgumentException when {@code peerDir} is not such a harness
     */
    public static PeerHarness prepare(Path peerDir, Path work) {
        if (!nodeInstalled()) {
            throw new IllegalStateException("node is not on the PATH: the peer scenario runs equinox-js on Node.js 20 or later");
        }
        Path from = peerDir.toAbsolutePath().normalize();
        if (!Files.isRegularFile(from.resolve("peer.mjs")) || !Files.isRegularFile(from.resolve("package.json"))) {
            throw new IllegalArgumentException("--peer-dir " + from + " has no peer.mjs and package.json: give the directory of"
                    + " the equinox-js harness (see samples/BENCHMARKS.md)");
        }
        Path dir = work.toAbsolutePath().resolve("peer");
        try (Stream<Path> files = Files.walk(from)) {
            for (Path f : files.filter(f -> java.util.stream.StreamSupport.stream(from.relativize(f).spliterator(), false)
                    .noneMatch(part -> NOT_COPIED.contains(part.toString()))).toList()) {
                Path to = dir.resolve(from.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(f, to, StandardCopyOption.REPLACE_EXISTING);
                    to.toFile().setWritable(true, true); // the source may be read-only
                }
            }
            try (InputStream s = PeerHarness.class.getResourceAsStream("/io/appendsfeed/samples/bench/peer/" + DRIVER)) {
                Files.copy(s, dir.resolve(DRIVER), StandardCopyOption.REPLACE_EXISTING);
            }
            Path modules = dir.resolve("node_modules");
            if (Files.isDirectory(from.resolve("node_modules")) && !Files.exists(modules)) {
                Files.createSymbolicLink(modules, from.resolve("node_modules"));
            } else if (!Files.isDirectory(modules.resolve("@equinox-js/dynamo-store-indexer-lambda"))) {
                Processes.run(List.of("npm", "ci", "--no-audit", "--no-fund"), dir, Map.of(), work.resolve("npm-ci.log"), NPM_TIMEOUT);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not prepare the equinox-js harness from " + from + " in " + dir + ": " + e.getMessage(), e);
        }
        return new PeerHarness(dir, Processes.output("node", "--version"));
    }

    public String nodeVersion() {
        return nodeVersion;
    }

    /**
     * {@code node peer.mjs write}: creates the store (and an index nobody uses) with equinox-js's {@code dynamo-store
     * create-table} and appends a deterministic plan (seed 42, 8 concurrent writers) through equinox-js deciders.
     *
     * @return the harness's manifest ({@code events}, {@code appends}, {@code write.wcu}, ...)
     */
    public JsonNode write(URI endpoint, String storeTable, String unusedIndexTable, long events, int streams, Path out) {
        Processes.run(List.of("node", "peer.mjs", "write", "--events", Long.toString(events), "--streams", Integer.toString(streams),
                "--seed", "42", "--concurrency", "8", "--fresh"), dir, env(endpoint, storeTable, unusedIndexTable, out),
                out.resolve("write.log"), RUN_TIMEOUT);
        return json(out.resolve("manifest.json"));
    }

    /**
     * {@code node peer.mjs read --mode both} over {@code indexTable}: equinox-js's reader from the start to the
     * tail, index only and then with bodies, each checked against {@code manifest}.
     *
     * @return the harness's {@code read-result.json}: per mode events, ms, RCU, calls, gaps, mismatched streams
     * @throws Processes.ProcessFailedException when the read fails, or sees other events than were written (exit 1)
     */
    public JsonNode read(URI endpoint, String storeTable, String indexTable, Path manifest, Path out) {
        try {
            Files.createDirectories(out);
            Files.copy(manifest, out.resolve("manifest.json"), StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("could not set up " + out + ": " + e.getMessage(), e);
        }
        Processes.run(List.of("node", "peer.mjs", "read", "--mode", "both"), dir, env(endpoint, storeTable, indexTable, out),
                out.resolve("read.log"), RUN_TIMEOUT);
        return json(out.resolve("read-result.json"));
    }

    /** The batch files in {@code batchDir}, one at a time, to equinox-js's Lambda handler in a fresh node process. */
    public HandlerRun index(Path batchDir, Path work, URI endpoint, String indexTable) {
        Map<String, String> env = Processes.cleanEnv();
        env.putAll(Map.of("INDEX_TABLE_NAME", indexTable, "AWS_ENDPOINT_URL", endpoint.toString(),
                "AWS_ENDPOINT_URL_DYNAMODB", endpoint.toString(), "AWS_REGION", "us-east-1", "AWS_ACCESS_KEY_ID", "local",
                "AWS_SECRET_ACCESS_KEY", "local", "AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED", "true"));
        Path out = work.toAbsolutePath().resolve("equinox-js-" + indexTable + ".json");
        env.put("BENCH_SPAWNED_AT", Long.toString(System.currentTimeMillis()));
        Processes.run(List.of("node", "--import", "tsx", DRIVER, batchDir.toAbsolutePath().toString(), out.toString()), dir, env,
                work.resolve("equinox-js-" + indexTable + ".log"), LambdaJar.TIMEOUT);
        return HandlerRun.parse(out);
    }

    private static Map<String, String> env(URI endpoint, String storeTable, String indexTable, Path out) {
        Map<String, String> env = Processes.cleanEnv();
        env.putAll(Map.of("PEER_DDB_ENDPOINT", endpoint.toString(), "PEER_STORE_TABLE", storeTable, "PEER_INDEX_TABLE", indexTable,
                "PEER_OUT", out.toAbsolutePath().toString(), "AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED", "true"));
        return env;
    }

    private static JsonNode json(Path file) {
        try {
            return new ObjectMapper().readTree(file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("the harness did not write " + file + ": " + e.getMessage(), e);
        }
    }
}

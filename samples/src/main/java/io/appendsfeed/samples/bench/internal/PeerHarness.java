package io.appendsfeed.samples.bench.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * equinox-js, driven from the benchmark. The benchmark does not ship equinox-js: it is given the
 * directory of a harness that installs it ({@code --peer-dir}: a {@code package.json} with the
 * equinox-js 1.2.0 packages and {@code tsx}, and a {@code peer.mjs} with the {@code write} and
 * {@code read} commands), and uses:
 * <ul>
 * <li>the harness's {@code node peer.mjs write} to write the store with equinox-js's {@code DynamoStore};</li>
 * <li>the harness's {@code node peer.mjs read --mode both} to read an index with equinox-js's
 *     {@code DynamoStoreSource}, index only and with bodies, capacity metered;</li>
 * <li>its own driver, {@code lambda-batches.mjs} (in this package's resources), to hand the same
 *     Lambda events the JVM handler gets to equinox-js's Lambda handler one at a time and time each
 *     call, which the harness's {@code index} command does not report per batch.</li>
 * </ul>
 * When the directory has no {@code node_modules}, it is copied (without {@code node_modules},
 * {@code out}) under the work directory and installed there with {@code npm ci}.
 */
public final class PeerHarness {

    /** The benchmark's own equinox-js driver, written next to the installed packages. */
    public static final String SCRIPT = "lambda-batches.mjs";
    private static final String SCRIPT_RESOURCE = "/io/appendsfeed/samples/bench/peer/" + SCRIPT;
    private static final String HANDLER_PACKAGE = "node_modules/@equinox-js/dynamo-store-indexer-lambda";
    private static final Duration NPM_TIMEOUT = Duration.ofMinutes(15);
    private static final Duration WRITE_TIMEOUT = Duration.ofMinutes(60);
    private static final Duration READ_TIMEOUT = Duration.ofMinutes(30);
    private static final Set<String> NOT_COPIED = Set.of("node_modules", "out", "target");

    private final Path installed;
    private final Path driverDir;
    private final String nodeVersion;

    private PeerHarness(Path installed, Path driverDir, String nodeVersion) {
        this.installed = installed;
        this.driverDir = driverDir;
        this.nodeVersion = nodeVersion;
    }

    /** Whether {@code node} is on the PATH. */
    public static boolean nodeInstalled() {
        return Processes.output("node", "--version") != null;
    }

    /**
     * Makes the harness at {@code peerDir} ready to run (copying and installing it under {@code work}
     * when it has no {@code node_modules}) and writes the benchmark's driver next to it.
     *
     * @throws IllegalStateException when node is not installed, or {@code npm ci} fails
     * @throws IllegalArgumentException when {@code peerDir} is not such a harness
     */
    public static PeerHarness prepare(Path peerDir, Path work) {
        if (!nodeInstalled()) {
            throw new IllegalStateException("node is not on the PATH: the peer scenario runs equinox-js on Node.js 20 or later;"
                    + " install it or leave 'peer' out of --scenarios");
        }
        Path dir = peerDir.toAbsolutePath().normalize();
        if (!Files.isRegularFile(dir.resolve("peer.mjs")) || !Files.isRegularFile(dir.resolve("package.json"))) {
            throw new IllegalArgumentException("--peer-dir " + dir + " has no peer.mjs and package.json: give the directory of"
                    + " the equinox-js harness (see samples/BENCHMARKS.md)");
        }
        try {
            Files.createDirectories(work);
            Path installed = dir;
            if (!Files.isDirectory(dir.resolve(HANDLER_PACKAGE))) {
                installed = work.resolve("peer");
                if (!Files.isDirectory(installed.resolve(HANDLER_PACKAGE))) {
                    copy(dir, installed);
                    Processes.run(List.of("npm", "ci", "--no-audit", "--no-fund"), installed, Map.of(),
                            work.resolve("npm-ci.log"), NPM_TIMEOUT);
                }
            }
            Path driver = work.resolve("driver");
            Files.createDirectories(driver);
            try (InputStream s = PeerHarness.class.getResourceAsStream(SCRIPT_RESOURCE)) {
                if (s == null) {
                    throw new IllegalStateException("resource " + SCRIPT_RESOURCE + " is missing from the class path");
                }
                Files.copy(s, driver.resolve(SCRIPT), StandardCopyOption.REPLACE_EXISTING);
            }
            Path modules = driver.resolve("node_modules");
            if (Files.isSymbolicLink(modules) || Files.exists(modules)) {
                Files.delete(modules);
            }
            Files.createSymbolicLink(modules, installed.resolve("node_modules"));
            return new PeerHarness(installed, driver, Processes.output("node", "--version"));
        } catch (IOException e) {
            throw new UncheckedIOException("could not prepare the equinox-js harness from " + dir + " in " + work + ": "
                    + e.getMessage(), e);
        }
    }

    public String nodeVersion() {
        return nodeVersion;
    }

    /**
     * {@code node peer.mjs write}: creates the store (and an index table nobody uses) with equinox-js's
     * {@code dynamo-store create-table} and appends a deterministic plan (seed 42, 8 concurrent writers)
     * through equinox-js deciders.
     *
     * @return the harness's manifest (events, per-stream versions, store items, write figures)
     */
    public JsonNode write(URI endpoint, String storeTable, String unusedIndexTable, long events, int streams, Path out) {
        run(List.of("node", "peer.mjs", "write", "--events", Long.toString(events), "--streams", Integer.toString(streams),
                "--seed", "42", "--concurrency", "8", "--fresh"),
                env(endpoint, storeTable, unusedIndexTable, out), out.resolve("write.log"), WRITE_TIMEOUT);
        return json(out.resolve("manifest.json"));
    }

    /**
     * {@code node peer.mjs read --mode both} over {@code indexTable}: equinox-js's reader from the
     * start to the tail, index only and then with bodies, each checked against the manifest in
     * {@code out}.
     *
     * @return the harness's {@code read-result.json}: per mode events, ms, RCU, gaps, mismatched streams
     * @throws Processes.ProcessFailedException when the read fails, or sees other events than were written (exit 1)
     */
    public JsonNode read(URI endpoint, String storeTable, String indexTable, Path manifest, Path out) {
        try {
            Files.createDirectories(out);
            Files.copy(manifest, out.resolve("manifest.json"), StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("could not set up " + out + ": " + e.getMessage(), e);
        }
        run(List.of("node", "peer.mjs", "read", "--mode", "both"), env(endpoint, storeTable, indexTable, out),
                out.resolve("read.log"), READ_TIMEOUT);
        return json(out.resolve("read-result.json"));
    }

    /**
     * The batches in {@code batchDir}, one at a time, to equinox-js's Lambda handler in a fresh node
     * process (the benchmark's driver), indexing into {@code indexTable}.
     */
    public HandlerRun index(Path batchDir, Path work, URI endpoint, String indexTable) {
        Map<String, String> env = Processes.cleanEnv();
        env.put("INDEX_TABLE_NAME", indexTable);
        env.put("AWS_ENDPOINT_URL", endpoint.toString());
        env.put("AWS_ENDPOINT_URL_DYNAMODB", endpoint.toString());
        env.put("AWS_REGION", "us-east-1");
        env.put("AWS_ACCESS_KEY_ID", "local");
        env.put("AWS_SECRET_ACCESS_KEY", "local");
        env.put("AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED", "true");
        Path out = work.resolve("equinox-js-" + indexTable + ".tsv");
        List<String> command = List.of("node", "--import", "tsx", driverDir.resolve(SCRIPT).toString(),
                batchDir.toAbsolutePath().toString(), out.toAbsolutePath().toString());
        env.put("BENCH_SPAWNED_AT", Long.toString(System.currentTimeMillis()));
        Processes.run(command, driverDir, env, work.resolve("equinox-js-" + indexTable + ".log"), LambdaJar.TIMEOUT);
        return HandlerRun.parse(out);
    }

    private void run(List<String> command, Map<String, String> env, Path log, Duration timeout) {
        Processes.run(command, installed, env, log, timeout);
    }

    private static Map<String, String> env(URI endpoint, String storeTable, String indexTable, Path out) {
        Map<String, String> env = Processes.cleanEnv();
        env.put("PEER_DDB_ENDPOINT", endpoint.toString());
        env.put("PEER_STORE_TABLE", storeTable);
        env.put("PEER_INDEX_TABLE", indexTable);
        env.put("PEER_OUT", out.toAbsolutePath().toString());
        env.put("AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED", "true");
        return env;
    }

    private static JsonNode json(Path file) {
        try {
            return new ObjectMapper().readTree(file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("the harness did not write " + file + ": " + e.getMessage(), e);
        }
    }

    private static void copy(Path from, Path to) throws IOException {
        Files.walkFileTree(from, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                if (!dir.equals(from) && NOT_COPIED.contains(dir.getFileName().toString())) {
                    return FileVisitResult.SKIP_SUBTREE;
                }
                Files.createDirectories(to.resolve(from.relativize(dir).toString()));
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Path target = to.resolve(from.relativize(file).toString());
                Files.copy(file, target, StandardCopyOption.REPLACE_EXISTING);
                target.toFile().setWritable(true, true); // the source may be read-only
                return FileVisitResult.CONTINUE;
            }
        });
    }
}

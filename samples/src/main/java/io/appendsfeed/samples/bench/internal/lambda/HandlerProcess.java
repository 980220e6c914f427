package io.appendsfeed.samples.bench.internal.lambda;

import io.appendsfeed.samples.bench.internal.Processes;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Hands a directory of Lambda events ({@code batch-*.json}) to our Lambda handler in a fresh JVM
 * running the shaded jar ({@link HandlerDriver}), one event at a time, and reads back what the driver
 * measured. (equinox-js's handler runs the same way in node: {@code PeerHarness#index}.)
 */
public final class HandlerProcess {

    /** Generous: 100,000 events' records at a few hundred records per second still fit. */
    public static final Duration TIMEOUT = Duration.ofMinutes(30);

    private HandlerProcess() {
    }

    /**
     * Our handler ({@code IndexerStreamHandler}, the template's) from the shaded jar, handed each event's bytes.
     *
     * @param jvmFlags {@code JAVA_TOOL_OPTIONS}, e.g. {@link LambdaJar#javaToolOptions()}; empty for the JVM's defaults
     * @param metered {@code true}: capacity summed per batch through a metering client;
     *                {@code false}: the handler's no-argument constructor, exactly as Lambda builds it
     * @param storeTable the table whose stream the batches come from (the handler refuses records of any other)
     * @param batchSize the batch size the files were cut at, as the template gives the function the event source
     *                  mapping's ({@code APPENDS_BATCH_SIZE}); 0 for none
     * @throws Processes.ProcessFailedException when the driver fails (a batch not ingested whole exits 3)
     */
    public static HandlerRun java(LambdaJar jar, String jvmFlags, boolean metered, Path batchDir, Path work,
                                  URI endpoint, String storeTable, String indexTable, int batchSize) {
        Map<String, String> env = cleanEnv();
        env.put("APPENDS_INDEX_TABLE", indexTable);
        env.put("APPENDS_STORE_TABLE", storeTable);
        env.put("APPENDS_DYNAMODB_ENDPOINT", endpoint.toString());
        env.put("AWS_REGION", "us-east-1");
        env.put("APPENDS_BATCH_SIZE", batchSize > 0 ? Integer.toString(batchSize) : null);
        env.put("JAVA_TOOL_OPTIONS", jvmFlags.isBlank() ? null : jvmFlags);
        Path out = work.resolve("appendsfeed-" + indexTable + ".tsv");
        List<String> command = jar.command(metered ? "metered" : "plain",
                batchDir.toString(), out.toString());
        env.put("BENCH_SPAWNED_AT", Long.toString(System.currentTimeMillis()));
        Processes.run(command, work, env, work.resolve("appendsfeed-" + indexTable + ".log"), TIMEOUT);
        return HandlerRun.parse(out);
    }

    /** Removes every AWS, appendsfeed, JVM, node and peer setting of the caller's, so that none leaks into a child. */
    public static Map<String, String> cleanEnv() {
        Map<String, String> env = new HashMap<>();
        System.getenv().keySet().stream()
                .filter(k -> k.startsWith("AWS_") || k.startsWith("APPENDS_") || k.startsWith("JAVA_") || k.equals("_JAVA_OPTIONS")
                        || k.equals("JDK_JAVA_OPTIONS") || k.startsWith("PEER_") || k.equals("NODE_OPTIONS"))
                .forEach(k -> env.put(k, null));
        return env;
    }
}

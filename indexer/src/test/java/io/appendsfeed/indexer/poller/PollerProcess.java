package io.appendsfeed.indexer.poller;

import io.appendsfeed.indexer.Indexer;
import io.appendsfeed.indexer.IndexerConfig;
import io.appendsfeed.model.DynamoClients;
import io.appendsfeed.model.testing.faults.Fault;
import io.appendsfeed.model.testing.faults.FaultInjector;
import io.appendsfeed.model.testing.faults.FaultPlan;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * Test support: one poller in a JVM of its own, for {@link PollerCrashTest}, which kills it with
 * {@code kill -9}. Arguments: {@code <endpoint> <store table> <index table> <partitions> <owner>
 * <lease millis> [<k>|<stream prefix> before|after]}: with the last two, the k-th write this process
 * sends to DynamoDB (PutItem, UpdateItem or TransactWriteItems), or its first write to a stream
 * starting with the prefix (e.g. {@code $AppendsEpoch-}), is lost before it is sent, or lands with its
 * answer lost. Prints {@code FAULT <k> <operation> <stream>} when it injects it, {@code STARTED}
 * once polling; logs to stderr. Closing its stdin stops it gracefully (lease released).
 */
public final class PollerProcess {

    private static final Set<String> WRITES = Set.of("PutItem", "UpdateItem", "TransactWriteItems");
    private static final Pattern STREAM = Pattern.compile("\\$Appends[A-Za-z]+-[^\\s,})\\]]*");

    private PollerProcess() {}

    public static void main(String[] args) throws IOException {
        if (args.length != 6 && args.length != 8) {
            throw new IllegalArgumentException("usage: <endpoint> <store table> <index table> <partitions> <owner> <lease millis>"
                    + " [<k>|<stream prefix> before|after]");
        }
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        DynamoClients.Settings settings = DynamoClients.Settings.local(URI.create(args[0]));
        DynamoDbClient dynamo = DynamoClients.dynamoDb(settings);
        DynamoDbStreamsClient streams = DynamoClients.streams(settings);
        if (args.length == 8) {
            String target = args[6];
            Fault fault = args[7].equals("before") ? Fault.failBefore() : Fault.failAfter();
            AtomicLong writes = new AtomicLong();
            AtomicBoolean injected = new AtomicBoolean();
            FaultPlan plan = call -> {
                if (!WRITES.contains(call.operation())) {
                    return Optional.empty();
                }
                long k = writes.incrementAndGet();
                Matcher m = STREAM.matcher(call.request().toString());
                String stream = m.find() ? m.group() : "?";
                boolean chosen = target.startsWith("$") ? stream.startsWith(target) : k == Long.parseLong(target);
                if (!chosen || !injected.compareAndSet(false, true)) {
                    return Optional.empty();
                }
                out.println("FAULT " + k + " " + call.operation() + " " + stream + " " + args[7]);
                return Optional.of(fault);
            };
            dynamo = new FaultInjector(plan).wrap(dynamo);
        }
        Indexer indexer = Indexer.start(dynamo, IndexerConfig.builder(args[2]).partitions(Integer.parseInt(args[3])).build());
        PollerConfig config = PollerConfig.of(args[1]).withOwner(args[4]).withLeaseDuration(Duration.ofMillis(Long.parseLong(args[5])))
                .withIdleWait(Duration.ofMillis(50)).withRetryBackoff(Duration.ofMillis(200));
        try (StreamsPoller poller = new StreamsPoller(dynamo, streams, indexer, config).start()) {
            out.println("STARTED " + args[4] + " after " + java.lang.management.ManagementFactory.getRuntimeMXBean().getUptime() + " ms");
            InputStream in = System.in;
            while (in.read() >= 0) {
                // runs until stdin closes, or until killed
            }
        }
        out.println("STOPPED " + args[4]);
        System.exit(0);
    }
}

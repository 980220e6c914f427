package io.appendsfeed.model.testing.faults;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * Wraps real {@link DynamoDbClient}s and {@link DynamoDbStreamsClient}s so that calls fail, time
 * out ambiguously, get throttled or slow down as a {@link FaultPlan} says, and records what it
 * injected. For tests only.
 *
 * <pre>{@code
 * FaultInjector faults = new FaultInjector(FaultPlan.builder()
 *         .nth("UpdateItem", 2, Fault.failAfter())
 *         .every("GetRecords", Fault.delay(Duration.ofMillis(5)))
 *         .build());
 * DynamoDbClient dynamo = faults.wrap(local.dynamo());          // hand this to the code under test
 * DynamoDbStreamsClient streams = faults.wrap(local.streams());
 * ... run the code under test ...
 * System.out.println(faults.summary());                         // faults injected: 1 (FailAfter 1) in 40 calls
 * assertThat(faults.count(Fault.FailAfter.class)).isEqualTo(1);
 * }</pre>
 *
 * <p>The wrapper sits <em>outside</em> the SDK client: an injected exception is not retried by
 * the SDK, it reaches the caller on the first attempt, so it is the caller's own retry and
 * recovery that is tested. Real errors from DynamoDB still go through the SDK's retries as usual.
 *
 * <p>Every operation is covered, including the consumer-builder overloads ({@code putItem(b -> ...)}),
 * paginators ({@code queryPaginator}: each page is a {@code Query} call through the plan) and
 * waiters. Call numbers count per operation name across every client this injector wraps and
 * every thread, starting at 1; counters and the record are thread-safe. {@code close()} closes
 * the real client.
 */
public final class FaultInjector {

    private volatile FaultPlan plan;
    private final Map<String, AtomicLong> calls = new ConcurrentHashMap<>();
    private final List<InjectedFault> injected = Collections.synchronizedList(new ArrayList<>());

    public FaultInjector(FaultPlan plan) {
        this.plan = Objects.requireNonNull(plan, "plan");
    }

    /** A client that sends its calls through this injector to {@code client}. */
    public DynamoDbClient wrap(DynamoDbClient client) {
        return proxy(DynamoDbClient.class, client, false);
    }

    /** A Streams client that sends its calls through this injector to {@code client}. */
    public DynamoDbStreamsClient wrap(DynamoDbStreamsClient client) {
        return proxy(DynamoDbStreamsClient.class, client, true);
    }

    private <T> T proxy(Class<T> api, T client, boolean streams) {
        Objects.requireNonNull(client, "client");
        return api.cast(Proxy.newProxyInstance(api.getClassLoader(), new Class<?>[] {api},
                new FaultingHandler(client, streams, this)));
    }

    public FaultPlan plan() {
        return plan;
    }

    /**
     * Uses {@code next} for calls from now on, e.g. {@code FaultPlan.none()} to let a system heal
     * before checking that it converged. Call numbers and the record carry on.
     */
    public void replacePlan(FaultPlan next) {
        this.plan = Objects.requireNonNull(next, "next");
    }

    /** The faults injected so far, in the order they were applied. */
    public List<InjectedFault> injected() {
        synchronized (injected) {
            return List.copyOf(injected);
        }
    }

    /** How many faults of {@code kind} (e.g. {@code Fault.Throttle.class}) were injected. */
    public long count(Class<? extends Fault> kind) {
        return injected().stream().filter(f -> kind.isInstance(f.fault())).count();
    }

    /** Faults injected per kind, e.g. {@code {FailAfter=2, Throttle=1}}. */
    public Map<String, Long> countsByKind() {
        return injected().stream().collect(Collectors.groupingBy(
                f -> f.fault().getClass().getSimpleName(), TreeMap::new, Collectors.counting()));
    }

    /** How many calls of {@code operation} (e.g. {@code Query}) went through so far, faulted or not. */
    public long calls(String operation) {
        AtomicLong n = calls.get(Operations.require(operation));
        return n == null ? 0 : n.get();
    }

    /** One line for a test's output, e.g. {@code faults injected: 3 (FailAfter 2, Throttle 1) in 57 calls}. */
    public String summary() {
        long total = calls.values().stream().mapToLong(AtomicLong::get).sum();
        String kinds = countsByKind().entrySet().stream()
                .map(e -> e.getKey() + " " + e.getValue())
                .collect(Collectors.joining(", "));
        return "faults injected: " + injected().size() + (kinds.isEmpty() ? "" : " (" + kinds + ")")
                + " in " + total + " calls";
    }

    long nextCall(String operation) {
        return calls.computeIfAbsent(operation, o -> new AtomicLong()).incrementAndGet();
    }

    void record(InjectedFault fault) {
        injected.add(fault);
    }

    @Override
    public String toString() {
        return summary();
    }
}

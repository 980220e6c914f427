package io.appendsfeed.samples.bench.internal;

import io.appendsfeed.model.DynamoClients;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.AppendResult;
import io.appendsfeed.model.store.EventData;
import io.appendsfeed.model.store.Expected;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.model.store.StoreTables;
import io.appendsfeed.samples.local.LocalEnvironment;
import java.net.URI;
import java.util.List;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * A fresh DynamoDB Local for one scenario, over HTTP (shared with child processes). What is measured goes through
 * {@link #measured()}, a {@link LatencyProxy} adding the round trip; setting up and checking go straight.
 */
public final class LocalDynamo implements AutoCloseable {

    private final LocalEnvironment server = LocalEnvironment.start();
    private final LatencyProxy proxy;

    /** @param roundTripMs added to every measured call; 0 for none */
    public LocalDynamo(double roundTripMs) {
        this.proxy = roundTripMs > 0 ? LatencyProxy.to(server.endpoint(), roundTripMs) : null;
    }

    /** Straight to DynamoDB Local: for setting up and checking, never for what is timed. */
    public DynamoDbClient dynamo() {
        return server.dynamo();
    }

    public DynamoDbStreamsClient streams() {
        return server.streams();
    }

    /** DynamoDB Local's own endpoint, without the added round trip. */
    public URI endpoint() {
        return server.endpoint();
    }

    /** Where measured clients connect, in this process or another. */
    public URI measured() {
        return proxy != null ? proxy.endpoint() : endpoint();
    }

    /** A client of the measured endpoint whose every call {@code meter} meters (the caller closes it). */
    public DynamoDbClient meteredClient(Meter meter) {
        return DynamoDbClient.builder().httpClientBuilder(ApacheHttpClient.builder().maxConnections(32))
                .endpointOverride(measured()).region(DynamoClients.LOCAL_REGION).credentialsProvider(DynamoClients.LOCAL_CREDENTIALS)
                .overrideConfiguration(c -> c.addExecutionInterceptor(meter)).build();
    }

    /** A store table with Streams ({@code NEW_IMAGE}). */
    public String storeTable(String name) {
        StoreTables.ensure(dynamo(), name, StreamViewType.NEW_IMAGE);
        return name;
    }

    /** An index table: Streams off. */
    public String indexTable(String name) {
        StoreTables.ensure(dynamo(), name, null);
        return name;
    }

    /** The benchmark's own store: {@code events} single-event appends round robin over {@code Account-0..}; returns its WCU. */
    public double writeWorkload(String table, long events, int streams) {
        Meter meter = new Meter();
        StoreClient store = new StoreClient(dynamo(), StoreConfig.builder(storeTable(table)).meter(meter).build());
        for (long k = 0; k < events; k++) {
            append(store, "Account", k, streams);
        }
        return meter.take().writeUnits();
    }

    /** Event {@code k} of a workload, a small JSON body (~80 bytes), appended as event {@code k / streams} of stream {@code k mod streams}. */
    static void append(StoreClient store, String category, long k, int streams) {
        StreamName s = StreamName.of(category, Long.toString(k % streams));
        EventData event = EventData.json(k % 3 == 0 ? "Withdrawn" : "Deposited",
                "{\"amount\":" + (k % 1000) + ",\"currency\":\"EUR\",\"ref\":\"bench-" + k + "\"}");
        if (!(store.append(s, Expected.version(k / streams), List.of(event)) instanceof AppendResult.Written)) {
            throw new IllegalStateException("append to " + s + " conflicted");
        }
    }

    @Override
    public void close() {
        if (proxy != null) {
            proxy.close();
        }
        server.close();
    }
}

package io.appendsfeed.model.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.appendsfeed.model.DynamoClients;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.CapacityMeter.Capacity;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** Every call reports what it consumed; the figures are logged (the README quotes them), never asserted as speed. */
@ExtendWith(LocalDynamoExtension.class)
class CapacityTest {

    private static final Logger log = LoggerFactory.getLogger(CapacityTest.class);
    private static final StreamName STREAM = StreamName.parse("Cost-1");

    record Call(String op, Capacity capacity) {}

    /** {@code bytes} of incompressible JSON text. */
    private static EventData event(int bytes, Random random) {
        StringBuilder s = new StringBuilder("{\"r\":\"");
        while (s.length() < bytes - 2) {
            s.append((char) ('a' + random.nextInt(26)));
        }
        return EventData.json("Happened", s.append("\"}").toString());
    }

    private static Capacity sum(List<Call> calls) {
        return calls.stream().map(Call::capacity).reduce(Capacity.NONE, Capacity::plus);
    }

    @Test
    void appends_and_reads_report_their_capacity(LocalDynamo local) {
        List<Call> calls = new CopyOnWriteArrayList<>();
        StoreFixture f = StoreFixture.fresh(local);
        StoreClient client = f.client(c -> c.compress(false).meter((op, table, capacity) -> {
            assertThat(table).isEqualTo(f.table);
            calls.add(new Call(op, capacity));
        }));
        Random random = new Random(42);

        client.append(STREAM, Expected.noStream(), List.of(event(1000, random)));
        Capacity created = sum(calls);
        assertThat(created).isNotEqualTo(Capacity.NONE);
        log.info("1 KB event, new stream: {} {}", calls, created);
        calls.clear();

        client.append(STREAM, Expected.version(1), List.of(event(1000, random)));
        assertThat(calls).extracting(Call::op).containsExactly("UpdateItem");
        assertThat(sum(calls).writeUnits()).isGreaterThan(created.writeUnits());
        log.info("1 KB event onto a 1 KB Tip: {}", sum(calls));
        long version = 2;
        AppendResult.Written last;
        do {
            calls.clear();
            last = (AppendResult.Written) client.append(STREAM, Expected.version(version++), List.of(event(1000, random)));
            if (version == 30) {
                log.info("1 KB event onto a 29 KB Tip: {}", sum(calls));
            }
        } while (!last.calved());
        assertThat(calls).extracting(Call::op).containsExactly("GetItem", "TransactWriteItems");
        assertThat(sum(calls).readUnits()).isPositive();
        log.info("calving append at event {} (Tip of ~32 KB moved to a calf): {} {}", version, calls, sum(calls));

        calls.clear();
        client.readTip(STREAM, false);
        client.readTip(STREAM, true);
        assertThat(calls).extracting(Call::op).containsExactly("GetItem", "GetItem");
        assertThat(calls.get(1).capacity().readUnits()).isEqualTo(2 * calls.get(0).capacity().readUnits());
        log.info("readTip eventually / strongly: {}", calls);

        calls.clear();
        assertThat(client.readAll(STREAM, Read.forward(0))).hasSize((int) version);
        assertThat(sum(calls).readUnits()).isPositive();
        log.info("read all {} events (one calf, the Tip): {} {}", version, calls, sum(calls));
        calls.clear();
        client.readAll(STREAM, Read.forward(0).typesOnly());
        log.info("types-only read of the same: {}", sum(calls));
    }

    @Test
    void write_units_per_event_depend_on_the_tip_threshold(LocalDynamo local) {
        StoreFixture f = StoreFixture.fresh(local);
        for (int tipKiB : List.of(32, 8, 4)) {
            List<Call> calls = new CopyOnWriteArrayList<>();
            StoreClient client = f.client(c -> c.compress(false).tipMaxBytes(tipKiB * 1024)
                    .meter((op, table, capacity) -> calls.add(new Call(op, capacity))));
            StreamName stream = StreamName.of("Cost", "tip" + tipKiB);
            Random random = new Random(7);
            int appends = 100;
            int calves = 0;
            for (int k = 0; k < appends; k++) {
                var w = (AppendResult.Written) client.append(stream, Expected.version(k), List.of(event(1000, random)));
                calves += w.calved() ? 1 : 0;
            }
            Capacity total = sum(calls);
            assertThat(total.writeUnits()).isGreaterThanOrEqualTo(appends);
            log.info("tipMaxBytes {} KiB: {} appends of one 1 KB event, {} calvings: {} WCU + {} RCU, {} WCU per event",
                    tipKiB, appends, calves, total.writeUnits(), total.readUnits(), total.writeUnits() / appends);
        }
    }

    @Test
    void the_none_meter_asks_for_no_capacity(LocalDynamo local) {
        List<String> asked = new CopyOnWriteArrayList<>();
        ExecutionInterceptor spy = new ExecutionInterceptor() {
            @Override
            public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
                asked.add(context.request().getValueForField("ReturnConsumedCapacity", String.class).orElse("(not set)"));
            }
        };
        StoreFixture f = StoreFixture.fresh(local);
        try (DynamoDbClient dynamo = DynamoDbClient.builder().endpointOverride(local.endpoint()).region(DynamoClients.LOCAL_REGION)
                .credentialsProvider(DynamoClients.LOCAL_CREDENTIALS).overrideConfiguration(c -> c.addExecutionInterceptor(spy)).build()) {
            new StoreClient(dynamo, StoreConfig.builder(f.table).build()).append(STREAM, Expected.noStream(), List.of(EventData.json("A", "{}")));
        }

        assertThat(asked).containsExactly("NONE");
    }
}

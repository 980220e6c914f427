package io.appendsfeed.model.store;

import static org.assertj.core.api.Assertions.assertThat;

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

        var created = (AppendResult.Written) client.append(STREAM, Expected.noStream(), List.of(event(1000, random)));
        assertThat(created.capacity()).isEqualTo(sum(calls)).isNotEqualTo(Capacity.NONE);
        log.info("1 KB event, new stream: {} {}", calls, created.capacity());
        calls.clear();

        var second = (AppendResult.Written) client.append(STREAM, Expected.version(1), List.of(event(1000, random)));
        assertThat(calls).extracting(Call::op).containsExactly("UpdateItem");
        assertThat(second.capacity().writeUnits()).isGreaterThan(created.capacity().writeUnits());
        log.info("1 KB event onto a 1 KB Tip: {}", second.capacity());
        long version = 2;
        AppendResult.Written last = second;
        while (!last.calved()) {
            calls.clear();
            last = (AppendResult.Written) client.append(STREAM, Expected.version(version++), List.of(event(1000, random)));
            if (version == 30) {
                log.info("1 KB event onto a 29 KB Tip: {}", last.capacity());
            }
        }
        assertThat(calls).extracting(Call::op).containsExactly("GetItem", "TransactWriteItems");
        assertThat(last.capacity()).isEqualTo(sum(calls));
        assertThat(last.capacity().readUnits()).isPositive();
        log.info("calving append at event {} (Tip of ~32 KB moved to a calf): {} {}", version, calls, last.capacity());

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
        StoreClient client = StoreFixture.fresh(local).client();

        var written = (AppendResult.Written) client.append(STREAM, Expected.noStream(), List.of(EventData.json("A", "{}")));

        assertThat(written.capacity()).isEqualTo(Capacity.NONE);
    }
}

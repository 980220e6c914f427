package io.appendsfeed.indexer.internal;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.appendsfeed.indexer.BatchOutcome.RejectedRecord;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.EventData;
import io.appendsfeed.model.store.Expected;
import io.appendsfeed.model.store.StoreClient;
import java.util.List;

/** {@code $AppendsRejected-0} in the index table: records the poller could not index, with why. */
public final class RejectedLog {

    public static final StreamName STREAM = StreamName.of("$AppendsRejected", "0");
    public static final String EVENT_TYPE = "Rejected";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final StoreClient index;

    public RejectedLog(StoreClient index) {
        this.index = index;
    }

    /** @throws RuntimeException from DynamoDB: the record is not recorded, and the source must not move past it */
    public void record(String storeTable, String shardId, RejectedRecord r) {
        ObjectNode o = JSON.createObjectNode();
        o.put("table", storeTable).put("shard", shardId).put("sequenceNumber", r.sequenceNumber())
                .put("key", r.key()).put("reason", r.reason());
        index.append(STREAM, Expected.any(), List.of(EventData.json(EVENT_TYPE, o.toString())));
    }
}

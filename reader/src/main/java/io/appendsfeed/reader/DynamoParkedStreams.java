package io.appendsfeed.reader;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.FeedStreams;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.store.AppendResult;
import io.appendsfeed.model.store.EventData;
import io.appendsfeed.model.store.Expected;
import io.appendsfeed.model.store.Read;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.model.store.StoredEvent;
import io.appendsfeed.reader.internal.Json;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Parked streams in the index table: {@code $ReaderParked-<group>} holds
 * {@code Parked {stream, partition, fromIndex, position, reason, attempts, at}} and
 * {@code Released {stream, by, at}} events; a stream is parked when its last event is
 * {@code Parked}. The events are the history of every park and release. Part of the storage format.
 */
public final class DynamoParkedStreams implements ParkedStreams {

    /** Category of the parked-streams stream of a group. */
    public static final String CATEGORY = "$ReaderParked";
    static final String PARKED = "Parked";
    static final String RELEASED = "Released";

    private final StoreClient index;
    private final Clock clock;

    public DynamoParkedStreams(DynamoDbClient dynamo, String indexTable, Clock clock) {
        this(new StoreClient(dynamo, StoreConfig.builder(indexTable).reservedStreams(true).clock(clock).build()), clock);
    }

    /** @param index a client of the index table with {@code reservedStreams(true)} */
    public DynamoParkedStreams(StoreClient index, Clock clock) {
        this.index = index;
        this.clock = clock;
    }

    public static StreamName stream(String group) {
        return StreamName.of(CATEGORY, FeedStreams.checkGroup(group));
    }

    @Override
    public void park(ParkedStream p) {
        ObjectNode o = Json.object().put("stream", p.stream().value()).put("partition", p.partition().value())
                .put("fromIndex", p.fromIndex()).put("position", p.position().value()).put("reason", p.reason())
                .put("attempts", p.attempts()).put("at", p.parkedAt().toString());
        write(stream(p.group()), new EventData(PARKED, Json.bytes(o), null, null, null, p.parkedAt()));
    }

    /** @throws IllegalStateException when the append keeps conflicting; nothing was written */
    @Override
    public boolean release(String group, StreamName stream, String by) {
        if (list(group).stream().noneMatch(p -> p.stream().equals(stream))) {
            return false;
        }
        ObjectNode o = Json.object().put("stream", stream.value()).put("by", by).put("at", clock.instant().toString());
        write(stream(group), new EventData(RELEASED, Json.bytes(o), null, null, null, null));
        return true;
    }

    private void write(StreamName s, EventData event) {
        if (index.append(s, Expected.any(), List.of(event)) instanceof AppendResult.Conflict) {
            throw new IllegalStateException("could not append " + event.type() + " to " + s
                    + ": other writers kept changing it; nothing was written, try again");
        }
    }

    @Override
    public List<ParkedStream> list(String group) {
        StreamName s = stream(group);
        Map<StreamName, ParkedStream> parked = new LinkedHashMap<>();
        for (StoredEvent e : index.readAll(s, Read.forward(0).strongly())) {
            JsonNode o = Json.parse(s.value(), e.type(), e.data());
            StreamName stream = StreamName.parse(Json.text(s.value(), o, "stream"));
            if (e.type().equals(PARKED)) {
                parked.remove(stream);
                parked.put(stream, new ParkedStream(group, stream, PartitionId.of((int) Json.number(s.value(), o, "partition")),
                        Json.number(s.value(), o, "fromIndex"), new Checkpoint(Json.number(s.value(), o, "position")),
                        Json.text(s.value(), o, "reason"), (int) Json.number(s.value(), o, "attempts"),
                        Json.instant(s.value(), o, "at")));
            } else if (e.type().equals(RELEASED)) {
                parked.remove(stream);
            } else {
                throw new IllegalStateException(s + " holds an event of unknown type '" + e.type()
                        + "' (written by a newer version?); upgrade appendsfeed to read it");
            }
        }
        return new ArrayList<>(parked.values());
    }
}

package io.appendsfeed.reader;

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
import java.time.Instant;
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
        ParkedBody body = new ParkedBody(p.stream().value(), p.partition().value(), p.fromIndex(), p.position().value(), p.reason(),
                p.attempts(), p.parkedAt().toString());
        append(index, stream(p.group()), new EventData(PARKED, Json.bytes(body), null, null, null, p.parkedAt()));
    }

    /** @throws IllegalStateException when the append keeps conflicting; nothing was written */
    @Override
    public boolean release(String group, StreamName stream, String by) {
        if (list(group).stream().noneMatch(p -> p.stream().equals(stream))) {
            return false;
        }
        ReleasedBody body = new ReleasedBody(stream.value(), by, clock.instant().toString());
        append(index, stream(group), new EventData(RELEASED, Json.bytes(body), null, null, null, null));
        return true;
    }

    /** Appends at any version, as the reader's history streams ({@code $ReaderParked}, {@code $ReaderGroups}) are written. */
    static void append(StoreClient index, StreamName s, EventData event) {
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
            if (e.type().equals(PARKED)) {
                ParkedBody p = Json.parse(s.value(), e.type(), e.data(), ParkedBody.class);
                StreamName stream = StreamName.parse(p.stream());
                parked.remove(stream);
                parked.put(stream, new ParkedStream(group, stream, PartitionId.of(p.partition()), p.fromIndex(),
                        new Checkpoint(p.position()), p.reason(), p.attempts(), Instant.parse(p.at())));
            } else if (e.type().equals(RELEASED)) {
                parked.remove(StreamName.parse(Json.parse(s.value(), e.type(), e.data(), ReleasedBody.class).stream()));
            } else {
                throw new IllegalStateException(s + " holds an event of unknown type '" + e.type()
                        + "' (written by a newer version?); upgrade appendsfeed to read it");
            }
        }
        return new ArrayList<>(parked.values());
    }

    private record ParkedBody(String stream, int partition, long fromIndex, long position, String reason, int attempts, String at) {}

    private record ReleasedBody(String stream, String by, String at) {}
}

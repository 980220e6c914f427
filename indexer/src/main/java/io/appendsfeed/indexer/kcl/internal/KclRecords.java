package io.appendsfeed.indexer.kcl.internal;

import com.amazonaws.services.dynamodbv2.streamsadapter.adapter.DynamoDBStreamsClientRecord;
import io.appendsfeed.indexer.ChangeRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Translates the adapter's records (Kinesis-shaped, each wrapping the DynamoDB Streams record it
 * was made from, {@link DynamoDBStreamsClientRecord#getRecord()}) into the indexer's
 * {@link ChangeRecord}s, one for one. A record without its DynamoDB part becomes an empty record
 * under its sequence number, which the indexer rejects by name: never skipped. Pure.
 */
public final class KclRecords {

    private KclRecords() {}

    public static List<ChangeRecord> translate(List<DynamoDBStreamsClientRecord> delivered) {
        List<ChangeRecord> out = new ArrayList<>(delivered.size());
        for (DynamoDBStreamsClientRecord r : delivered) {
            var record = r.getRecord();
            out.add(record != null && record.dynamodb() != null ? ChangeRecord.from(record)
                    : new ChangeRecord(String.valueOf(r.sequenceNumber()), null, null, Map.of(), null, null));
        }
        return out;
    }
}

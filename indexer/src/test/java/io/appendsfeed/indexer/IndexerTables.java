package io.appendsfeed.indexer;

import io.appendsfeed.model.store.StoreTables;
import io.appendsfeed.model.testing.LocalDynamo;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;

/** Test support: fresh tables on DynamoDB Local. */
public final class IndexerTables {

    private IndexerTables() {}

    public static String index(LocalDynamo local) {
        String t = local.freshTableName("index");
        StoreTables.ensure(local.dynamo(), t, null);
        return t;
    }

    public static String store(LocalDynamo local) {
        String t = local.freshTableName("store");
        StoreTables.ensure(local.dynamo(), t, StreamViewType.NEW_IMAGE);
        return t;
    }
}

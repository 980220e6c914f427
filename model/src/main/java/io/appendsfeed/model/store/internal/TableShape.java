package io.appendsfeed.model.store.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.StreamSpecification;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/** What is wrong with a table's shape, each problem with what to do about it. */
public final class TableShape {

    private TableShape() {}

    /** Empty when the table is of the store format. */
    public static List<String> problems(TableDescription table, boolean requireStreams) {
        List<String> problems = new ArrayList<>();
        Map<String, String> types = table.attributeDefinitions().stream()
                .collect(Collectors.toMap(AttributeDefinition::attributeName, AttributeDefinition::attributeTypeAsString));
        Map<KeyType, KeySchemaElement> keys = table.keySchema().stream()
                .collect(Collectors.toMap(KeySchemaElement::keyType, Function.identity()));
        key(problems, keys.get(KeyType.HASH), "hash", Fields.P, "S", types);
        key(problems, keys.get(KeyType.RANGE), "range", Fields.I, "N", types);
        if (!problems.isEmpty()) {
            problems.add("the key schema cannot be changed: create a new table with hash key 'p' (S) and range key "
                    + "'i' (N) (StoreTables.ensure does) and copy the items");
        }
        if (requireStreams) {
            StreamSpecification s = table.streamSpecification();
            if (s == null || !Boolean.TRUE.equals(s.streamEnabled())) {
                problems.add("DynamoDB Streams is off; the indexer needs it: enable it with view type NEW_IMAGE "
                        + "(aws dynamodb update-table --table-name " + table.tableName()
                        + " --stream-specification StreamEnabled=true,StreamViewType=NEW_IMAGE)");
            } else if (s.streamViewType() != StreamViewType.NEW_IMAGE && s.streamViewType() != StreamViewType.NEW_AND_OLD_IMAGES) {
                problems.add("DynamoDB Streams has view type " + s.streamViewTypeAsString() + ", which does not carry "
                        + "the new Tip the indexer reads: disable Streams and enable it again with NEW_IMAGE or "
                        + "NEW_AND_OLD_IMAGES (the indexer must then start from the new stream)");
            }
        }
        return problems;
    }

    private static void key(List<String> problems, KeySchemaElement key, String kind, String name, String type,
                            Map<String, String> types) {
        if (key == null) {
            problems.add("it has no " + kind + " key; the format needs " + kind + " key '" + name + "' (" + type + ")");
            return;
        }
        if (!name.equals(key.attributeName())) {
            problems.add("its " + kind + " key is '" + key.attributeName() + "'; the format needs '" + name + "' (" + type + ")");
            return;
        }
        String actual = types.get(name);
        if (!type.equals(actual)) {
            problems.add("its " + kind + " key '" + name + "' is of type " + actual + "; the format needs " + type);
        }
    }
}

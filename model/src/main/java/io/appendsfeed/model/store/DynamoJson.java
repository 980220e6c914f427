package io.appendsfeed.model.store;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Reads DynamoDB's JSON for attribute values ({@code {"S": ...}}, {@code {"B": base64}}, ...), as an export holds them. */
public final class DynamoJson {

    private DynamoJson() {}

    /** A map of attribute values, the parser at its opening brace, left at the closing one. */
    public static Map<String, AttributeValue> readItem(JsonParser p) throws IOException {
        Map<String, AttributeValue> m = new java.util.LinkedHashMap<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new IOException("attribute " + name + " is not an object");
            }
            m.put(name, read(p));
        }
        return m;
    }

    /** One attribute value, likewise. */
    public static AttributeValue read(JsonParser p) throws IOException {
        if (p.nextToken() != JsonToken.FIELD_NAME) {
            throw new IOException("an attribute value with no type");
        }
        String type = p.currentName();
        JsonToken t = p.nextToken();
        AttributeValue v = switch (type) {
            case "S" -> AttributeValue.fromS(p.getText());
            case "N" -> AttributeValue.fromN(p.getText());
            case "B" -> AttributeValue.fromB(SdkBytes.fromByteArrayUnsafe(p.getBinaryValue()));
            case "BOOL" -> AttributeValue.fromBool(p.getBooleanValue());
            case "NULL" -> AttributeValue.fromNul(p.getBooleanValue());
            case "M" -> AttributeValue.fromM(readItem(p));
            case "L" -> {
                List<AttributeValue> l = new java.util.ArrayList<>();
                while (p.nextToken() == JsonToken.START_OBJECT) {
                    l.add(read(p));
                }
                yield AttributeValue.fromL(l);
            }
            case "SS", "NS" -> {
                List<String> l = new java.util.ArrayList<>();
                while (p.nextToken() == JsonToken.VALUE_STRING) {
                    l.add(p.getText());
                }
                yield type.equals("SS") ? AttributeValue.fromSs(l) : AttributeValue.fromNs(l);
            }
            case "BS" -> {
                List<SdkBytes> l = new java.util.ArrayList<>();
                while (p.nextToken() == JsonToken.VALUE_STRING) {
                    l.add(SdkBytes.fromByteArrayUnsafe(p.getBinaryValue()));
                }
                yield AttributeValue.fromBs(l);
            }
            default -> throw new IOException("an attribute value of unknown type " + type);
        };
        if (t == null || p.nextToken() != JsonToken.END_OBJECT) {
            throw new IOException("an attribute value with more than one type");
        }
        return v;
    }
}

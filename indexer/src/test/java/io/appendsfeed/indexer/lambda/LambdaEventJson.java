package io.appendsfeed.indexer.lambda;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Date;

/**
 * Reads {@code DynamodbEvent} JSON in the shape AWS delivers it (capitalised attribute-value keys,
 * {@code ApproximateCreationDateTime} in epoch seconds), as the Lambda runtime's serializer does.
 */
final class LambdaEventJson {

    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(MapperFeature.ACCEPT_CASE_INSENSITIVE_PROPERTIES)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .addModule(new SimpleModule().addDeserializer(Date.class, new JsonDeserializer<Date>() {
                @Override
                public Date deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
                    return new Date((long) (p.getDoubleValue() * 1000));
                }
            }))
            .build();

    private LambdaEventJson() {}

    static DynamodbEvent resource(String name) {
        try (InputStream in = LambdaEventJson.class.getResourceAsStream("/lambda/" + name)) {
            if (in == null) {
                throw new IllegalArgumentException("no test resource /lambda/" + name);
            }
            return JSON.readValue(in, DynamodbEvent.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static DynamodbEvent parse(String json) {
        try {
            return JSON.readValue(json, DynamodbEvent.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

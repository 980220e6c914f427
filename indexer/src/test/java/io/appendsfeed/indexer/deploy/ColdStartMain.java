package io.appendsfeed.indexer.deploy;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import com.amazonaws.services.lambda.runtime.serialization.PojoSerializer;
import com.amazonaws.services.lambda.runtime.serialization.events.LambdaEventSerializers;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Run by {@link LambdaJarIT} in a fresh JVM whose class path is the Lambda jar, the Lambda runtime's
 * event serializer and this class only: does what the Lambda Java runtime does on a cold start
 * (construct the handler named by {@code args[0]} with its no-arg constructor, settings from the
 * environment; hand a stream handler each event file's bytes and take its response's; for a
 * request handler, read each event file with the runtime's serializer, call the handler, write the
 * response with it) and prints one line per step with the milliseconds since the parent started
 * the process (system property {@code spawnedAt}).
 *
 * <p>Output: {@code main <ms>} (the JVM is up), {@code constructed <ms>}, then per event file
 * {@code handled <ms since start> <ms for this invocation> <response json>}.
 */
public final class ColdStartMain {

    private ColdStartMain() {}

    public static void main(String[] args) throws Exception {
        long spawnedAt = Long.parseLong(System.getProperty("spawnedAt"));
        System.out.println("main " + (System.currentTimeMillis() - spawnedAt));
        ClassLoader loader = ColdStartMain.class.getClassLoader();
        Object constructed = Class.forName(args[0], true, loader).getConstructor().newInstance();
        System.out.println("constructed " + (System.currentTimeMillis() - spawnedAt));
        if (constructed instanceof RequestStreamHandler stream) {
            for (int k = 1; k < args.length; k++) {
                long start = System.currentTimeMillis();
                ByteArrayOutputStream json = new ByteArrayOutputStream();
                try (InputStream s = Files.newInputStream(Path.of(args[k]))) {
                    stream.handleRequest(s, json, null);
                }
                long now = System.currentTimeMillis();
                System.out.println("handled " + (now - spawnedAt) + " " + (now - start) + " " + json.toString(StandardCharsets.UTF_8));
            }
            return;
        }
        @SuppressWarnings("unchecked")
        RequestHandler<DynamodbEvent, StreamsEventResponse> handler = (RequestHandler<DynamodbEvent, StreamsEventResponse>) constructed;
        PojoSerializer<DynamodbEvent> in = LambdaEventSerializers.serializerFor(DynamodbEvent.class, loader);
        PojoSerializer<StreamsEventResponse> out = LambdaEventSerializers.serializerFor(StreamsEventResponse.class, loader);
        for (int k = 1; k < args.length; k++) {
            long start = System.currentTimeMillis();
            DynamodbEvent event = read(in, Path.of(args[k]));
            StreamsEventResponse response = handler.handleRequest(event, null);
            ByteArrayOutputStream json = new ByteArrayOutputStream();
            out.toJson(response, json);
            long now = System.currentTimeMillis();
            System.out.println("handled " + (now - spawnedAt) + " " + (now - start) + " " + json.toString(StandardCharsets.UTF_8));
        }
    }

    private static DynamodbEvent read(PojoSerializer<DynamodbEvent> in, Path file) throws IOException {
        try (InputStream s = Files.newInputStream(file)) {
            return in.fromJson(s);
        }
    }
}

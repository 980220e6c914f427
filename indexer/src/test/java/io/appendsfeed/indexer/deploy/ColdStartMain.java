package io.appendsfeed.indexer.deploy;

import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Run by {@link LambdaJarIT} in a fresh JVM whose class path is the Lambda jar and this class only:
 * does what the Lambda Java runtime does on a cold start (construct the stream handler named by
 * {@code args[0]} with its no-arg constructor, settings from the environment; hand it each event
 * file's bytes and take its response's) and prints one line per step with the milliseconds since the
 * parent started the process (system property {@code spawnedAt}).
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
        RequestStreamHandler stream = (RequestStreamHandler) constructed;
        for (int k = 1; k < args.length; k++) {
            long start = System.currentTimeMillis();
            ByteArrayOutputStream json = new ByteArrayOutputStream();
            try (InputStream s = Files.newInputStream(Path.of(args[k]))) {
                stream.handleRequest(s, json, null);
            }
            long now = System.currentTimeMillis();
            System.out.println("handled " + (now - spawnedAt) + " " + (now - start) + " " + json.toString(StandardCharsets.UTF_8));
        }
    }
}

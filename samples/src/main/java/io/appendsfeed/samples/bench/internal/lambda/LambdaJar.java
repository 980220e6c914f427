package io.appendsfeed.samples.bench.internal.lambda;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The indexer's shaded Lambda jar and how the SAM template runs it: the JVM flags of its
 * {@code JavaToolOptions} parameter's default, given to the JVM as {@code JAVA_TOOL_OPTIONS}, as
 * Lambda does. The driver JVM's class path is the jar and the
 * benchmark's classes (only {@link HandlerDriver} and the metering client are loaded from them).
 *
 * @param javaToolOptions the template's default, e.g. {@code -XX:+TieredCompilation -XX:TieredStopAtLevel=1}
 */
public record LambdaJar(Path jar, Path template, String javaToolOptions) {

    /** The heap of the driver JVM: the template's default memory is 1024 MB, shared with the rest of the process. */
    public static final String HEAP = "-Xmx512m";

    /**
     * @throws IllegalArgumentException when the jar or the template is missing, or the template has no
     *         {@code Parameters.JavaToolOptions.Default}
     */
    public static LambdaJar locate(Path jar, Path template) {
        if (jar == null || !Files.isRegularFile(jar)) {
            throw new IllegalArgumentException("the Lambda jar " + jar + " is missing: build it with"
                    + " 'mvn -B -q -pl samples -am package -DskipTests' (the indexer module's package phase makes it), or pass --lambda-jar");
        }
        if (template == null || !Files.isRegularFile(template)) {
            throw new IllegalArgumentException("the SAM template " + template + " is missing: pass --lambda-template indexer/deploy/template.yaml");
        }
        JsonNode root;
        try {
            root = new ObjectMapper(new YAMLFactory()).readTree(template.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("the SAM template " + template + " is not readable YAML: " + e.getMessage(), e);
        }
        JsonNode flags = root.at("/Parameters/JavaToolOptions/Default");
        if (!flags.isTextual()) {
            throw new IllegalArgumentException("the SAM template " + template + " has no Parameters.JavaToolOptions.Default");
        }
        // absolute: the driver JVM runs in another directory
        return new LambdaJar(jar.toAbsolutePath().normalize(), template.toAbsolutePath().normalize(), flags.asText());
    }

    /** The driver JVM's class path. */
    public String classPath() {
        return String.join(File.pathSeparator, jar.toString(), codeSource(HandlerDriver.class).toString());
    }

    /**
     * The collector the Lambda Java runtime itself starts the JVM with (its command line, seen in a
     * running function: {@code -XX:+UseSerialGC -Xshare:on ... -XX:TieredStopAtLevel=1}); the JVM's
     * own choice here, on a machine with 2 processors, would be G1, which a function never runs with.
     */
    public static final String RUNTIME_GC = "-XX:+UseSerialGC";

    /** {@code java -Xmx512m -XX:+UseSerialGC -cp <class path> HandlerDriver}; the template's flags go in {@code JAVA_TOOL_OPTIONS}. */
    public List<String> command(String... args) {
        List<String> c = new java.util.ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                HEAP, RUNTIME_GC, "-cp", classPath(), HandlerDriver.class.getName()));
        c.addAll(List.of(args));
        return c;
    }

    private static Path codeSource(Class<?> c) {
        try {
            return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException("class path entry of " + c.getName() + " is not a path: " + e.getMessage(), e);
        }
    }
}

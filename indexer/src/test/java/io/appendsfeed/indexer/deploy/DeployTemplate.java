package io.appendsfeed.indexer.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * Test support: {@code indexer/deploy/template.yaml} read with a plain YAML parser (the template uses
 * long-form intrinsics only, so {@code Ref: X} is the map {@code {"Ref": "X"}}).
 */
final class DeployTemplate {

    static final Path FILE = Path.of("deploy", "template.yaml");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private final JsonNode root;

    private DeployTemplate(JsonNode root) {
        this.root = root;
    }

    static DeployTemplate load() {
        return load(FILE);
    }

    static DeployTemplate load(Path file) {
        try {
            return new DeployTemplate(YAML.readTree(Files.readString(file)));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file.toAbsolutePath(), e);
        }
    }

    static String text() {
        try {
            return Files.readString(FILE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    JsonNode resource(String logicalId) {
        JsonNode r = root.path("Resources").path(logicalId);
        if (r.isMissingNode()) {
            throw new AssertionError("template has no resource " + logicalId);
        }
        return r;
    }

    JsonNode properties(String logicalId) {
        return resource(logicalId).path("Properties");
    }

    JsonNode parameter(String name) {
        JsonNode p = root.path("Parameters").path(name);
        if (p.isMissingNode()) {
            throw new AssertionError("template has no parameter " + name);
        }
        return p;
    }

    /** The value as deployed with default parameters: {@code Ref} to a parameter gives its default. */
    String resolve(JsonNode value) {
        if (value.isObject() && value.has("Ref") && value.size() == 1) {
            String name = value.get("Ref").asText();
            JsonNode p = root.path("Parameters").path(name);
            if (!p.isMissingNode()) {
                return p.path("Default").asText();
            }
            JsonNode r = root.path("Resources").path(name);
            if (r.path("Type").asText().equals("AWS::DynamoDB::Table")) {
                return resolve(r.path("Properties").path("TableName")); // a table's Ref is its name
            }
            throw new AssertionError("Ref to " + name + " is neither a parameter nor a table");
        }
        if (!value.isValueNode()) {
            throw new AssertionError("not a literal or a parameter Ref: " + value);
        }
        return value.asText();
    }

    /** A role's or managed policy's statements by Sid. */
    Map<String, JsonNode> statements(JsonNode policyDocument) {
        Map<String, JsonNode> out = new LinkedHashMap<>();
        for (JsonNode s : policyDocument.path("Statement")) {
            if (out.put(s.path("Sid").asText(), s) != null) {
                throw new AssertionError("duplicate Sid " + s.path("Sid"));
            }
        }
        return out;
    }

    static Set<String> strings(JsonNode arrayOrText) {
        Set<String> out = new LinkedHashSet<>();
        if (arrayOrText.isArray()) {
            arrayOrText.forEach(n -> out.add(n.asText()));
        } else if (!arrayOrText.isMissingNode()) {
            out.add(arrayOrText.asText());
        }
        return out;
    }

    static JsonNode json(String text) {
        try {
            return new ObjectMapper().readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

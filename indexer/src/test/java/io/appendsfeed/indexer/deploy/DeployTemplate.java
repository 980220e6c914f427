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
    /** A role's only managed policy: X-Ray's daemon write access, and only with {@code Tracing=Active}. */
    static final JsonNode XRAY_WHEN_TRACING_ACTIVE = json("{\"Fn::If\":[\"TracingActive\",[{\"Fn::Sub\":\"arn:${AWS::Partition}:iam::aws:"
            + "policy/AWSXRayDaemonWriteAccess\"}],{\"Ref\":\"AWS::NoValue\"}]}");
    /** The build's copy, with the version filled in: the one to deploy. */
    static final Path BUILT = Path.of("target", "deploy", "template.yaml");
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

    JsonNode condition(String name) {
        JsonNode c = root.path("Conditions").path(name);
        if (c.isMissingNode()) {
            throw new AssertionError("template has no condition " + name);
        }
        return c;
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
        return resolve(value, Map.of());
    }

    /**
     * The value as deployed with these parameters (the others at their defaults): literals, {@code Ref}
     * to a parameter or a table (its name), and {@code Fn::Select} of an {@code Fn::Split}.
     */
    String resolve(JsonNode value, Map<String, String> parameters) {
        if (value.isObject() && value.has("Ref") && value.size() == 1) {
            String name = value.get("Ref").asText();
            JsonNode p = root.path("Parameters").path(name);
            if (!p.isMissingNode()) {
                return parameters.getOrDefault(name, p.path("Default").asText());
            }
            JsonNode r = root.path("Resources").path(name);
            if (r.path("Type").asText().equals("AWS::DynamoDB::Table")) {
                return resolve(r.path("Properties").path("TableName"), parameters); // a table's Ref is its name
            }
            throw new AssertionError("Ref to " + name + " is neither a parameter nor a table");
        }
        if (value.isObject() && value.has("Fn::Select") && value.size() == 1) {
            JsonNode args = value.get("Fn::Select");
            JsonNode split = args.get(1).path("Fn::Split");
            if (split.size() != 2) {
                throw new AssertionError("Fn::Select of anything but an Fn::Split: " + value);
            }
            String[] parts = resolve(split.get(1), parameters).split(java.util.regex.Pattern.quote(split.get(0).asText()), -1);
            int index = args.get(0).asInt();
            if (index >= parts.length) {
                throw new AssertionError("Fn::Select index " + index + " of " + parts.length + " parts: " + value);
            }
            return parts[index];
        }
        if (!value.isValueNode()) {
            throw new AssertionError("not a literal, a Ref or an Fn::Select of an Fn::Split: " + value);
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

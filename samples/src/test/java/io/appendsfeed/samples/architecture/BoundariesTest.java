package io.appendsfeed.samples.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The boundaries the layout promises, checked on the compiled classes of every module (this module
 * depends on all of them): an {@code internal} package is used only by the package it belongs to and
 * that package's subpackages (so no module reaches into another's internals, and within a module a
 * sibling package cannot either), the core never sees the adapters' types, and the indexer's
 * deployables (Lambda, KCL worker, poller, backfill, notifier) do not use one another.
 */
class BoundariesTest {

    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.appendsfeed");
    }

    @Test
    void an_internal_package_is_used_only_by_its_owner_and_the_owners_subpackages() {
        List<String> violations = classes.stream().flatMap(c -> c.getDirectDependenciesFromSelf().stream())
                .filter(d -> d.getTargetClass().getPackageName().startsWith("io.appendsfeed"))
                .filter(d -> !owns(d.getOriginClass().getPackageName(), d.getTargetClass().getPackageName()))
                .map(d -> d.getDescription())
                .distinct().sorted().toList();
        assertThat(violations).as("uses of an internal package by a class outside its owner").isEmpty();
    }

    @Test
    void no_source_imports_an_internal_package_it_does_not_own() throws IOException {
        // constants are inlined into the class files, so the imports are checked too
        List<String> violations = new ArrayList<>();
        for (String module : List.of("model", "indexer", "reader", "samples")) {
            Path root = Path.of("..", module, "src", "main", "java");
            try (Stream<Path> files = Files.walk(root)) {
                for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                    String pkg = root.relativize(f.getParent()).toString().replace(java.io.File.separatorChar, '.');
                    for (String line : Files.readAllLines(f)) {
                        if (line.startsWith("import io.appendsfeed.")) {
                            String target = line.substring("import ".length(), line.lastIndexOf('.'));
                            if (!owns(pkg, target)) {
                                violations.add(f + ": " + line);
                            }
                        }
                    }
                }
            }
        }
        assertThat(violations).isEmpty();
    }

    @Test
    void the_indexer_core_never_sees_lambda_or_kcl_types() {
        noClasses().that().resideInAnyPackage("io.appendsfeed.indexer", "io.appendsfeed.indexer.internal")
                .should().dependOnClassesThat().resideInAnyPackage("com.amazonaws.services.lambda..", "software.amazon.kinesis..",
                        "com.amazonaws.services.dynamodbv2.streamsadapter..")
                .check(classes);
    }

    @Test
    void the_indexers_deployables_share_only_the_core_and_the_indexers_settings() {
        // the KCL worker, the poller and a backfill read their shared settings from indexer.settings, not
        // through the Lambda's, and none reaches into another's package; the notifier is a Lambda too and
        // converts its records with the Lambda's adapter
        List<String> deployables = List.of("lambda", "kcl", "poller", "backfill", "notifier");
        for (String d : deployables) {
            for (String other : deployables) {
                if (d.equals(other) || d.equals("notifier") && other.equals("lambda")) {
                    continue;
                }
                noClasses().that().resideInAPackage("io.appendsfeed.indexer." + d + "..")
                        .should().dependOnClassesThat().resideInAPackage("io.appendsfeed.indexer." + other + "..")
                        .check(classes);
            }
        }
    }

    @Test
    void the_model_depends_on_no_other_module() {
        noClasses().that().resideInAPackage("io.appendsfeed.model..")
                .should().dependOnClassesThat().resideInAnyPackage("io.appendsfeed.indexer..", "io.appendsfeed.reader..",
                        "io.appendsfeed.samples..")
                .check(classes);
    }

    /**
     * Whether a class in {@code origin} may use a class in {@code target}: always, unless the target is
     * in (or below) a package named {@code internal}, whose owner is the package above it; then only
     * the owner and its subpackages may.
     */
    static boolean owns(String origin, String target) {
        int at = target.indexOf(".internal");
        while (at >= 0) {
            int end = at + ".internal".length();
            if (end == target.length() || target.charAt(end) == '.') {
                String owner = target.substring(0, at);
                return origin.equals(owner) || origin.startsWith(owner + ".");
            }
            at = target.indexOf(".internal", end);
        }
        return true;
    }
}

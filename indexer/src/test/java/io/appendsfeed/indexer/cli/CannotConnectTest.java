package io.appendsfeed.indexer.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What an operator sees when DynamoDB cannot be reached or authenticated with: exit 3 and one line saying
 * what is missing and how to supply it. The SDK's chains read the AWS settings; the test points them, through
 * the SDK's system properties, at config and credentials files that do not exist, and turns the instance role off.
 */
class CannotConnectTest {

    record Run(int exit, String out, String err) {}

    private static final String CONFIG_FILE = "aws.configFile";
    private static final String CREDENTIALS_FILE = "aws.sharedCredentialsFile";
    private static final String METADATA_DISABLED = "aws.disableEc2Metadata";
    private static final String REGION = "aws.region";
    private static final String PROFILE = "aws.profile";

    private final Map<String, String> env = new HashMap<>();
    private final Map<String, String> saved = new HashMap<>();

    CannotConnectTest(@TempDir Path dir) {
        set(CONFIG_FILE, dir.resolve("no-config").toString());
        set(CREDENTIALS_FILE, dir.resolve("no-credentials").toString());
        set(METADATA_DISABLED, "true");
    }

    @AfterEach
    void restoreProperties() {
        saved.forEach((name, old) -> {
            if (old == null) {
                System.clearProperty(name);
            } else {
                System.setProperty(name, old);
            }
        });
    }

    @Test
    void no_region_anywhere_is_one_line_naming_the_option_the_variable_and_the_profile() {
        assumeNoAwsVariables();
        Run r = feed("epochs", "--index-table", "orders-index");

        assertThat(r.exit()).isEqualTo(FeedCli.CANNOT_CONNECT);
        assertThat(r.err().lines().toList()).containsExactly("feed epochs: no AWS region: pass --region (e.g. eu-west-1), set AWS_REGION,"
                + " or use a --profile (or AWS_PROFILE) whose config sets region");
    }

    @Test
    void the_profile_named_by_aws_profile_gives_the_region(@TempDir Path dir) throws IOException {
        Path config = Files.writeString(dir.resolve("config"),
                "[profile ops]\nregion = eu-west-1\naws_access_key_id = local\naws_secret_access_key = local\n");
        set(CONFIG_FILE, config.toString());
        set(PROFILE, "ops");

        var client = Connection.client(new Connection.Options(null, null, null, null, "orders-index"), env::get);

        assertThat(client.region()).hasValueSatisfying(region -> assertThat(region.id()).isEqualTo("eu-west-1"));
    }

    @Test
    void a_malformed_region_from_the_sdks_chain_is_bad_usage_naming_it() {
        set(REGION, "europe-west");
        Run r = feed("epochs", "--index-table", "orders-index");

        assertThat(r.exit()).isEqualTo(FeedCli.USAGE);
        assertThat(r.err().lines().toList()).containsExactly("feed epochs: the region 'europe-west' (from AWS_REGION or the profile)"
                + " is not an AWS region name: give one like eu-west-1 or us-east-1");
    }

    @Test
    void no_credentials_anywhere_is_one_line_saying_how_to_give_them() {
        assumeNoAwsVariables();
        set(REGION, "eu-west-1");
        Run r = feed("epochs", "--index-table", "orders-index");

        assertThat(r.exit()).isEqualTo(FeedCli.CANNOT_CONNECT);
        assertThat(r.err().lines().toList()).containsExactly("feed epochs: no AWS credentials: pass --profile NAME, set AWS_PROFILE,"
                + " or set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or run where a role provides them)");
    }

    @Test
    void a_profile_without_credentials_is_one_line_naming_it(@TempDir Path dir) throws IOException {
        Path config = Files.writeString(dir.resolve("config"), "[profile ops]\nregion = eu-west-1\n");
        set(CONFIG_FILE, config.toString());
        Run r = feed("epochs", "--index-table", "orders-index", "--profile", "ops");

        assertThat(r.exit()).isEqualTo(FeedCli.CANNOT_CONNECT);
        assertThat(r.err().lines().toList()).singleElement().asString()
                .startsWith("feed epochs: no AWS credentials for --profile 'ops': ");
    }

    @Test
    void a_closed_port_fails_after_the_clis_few_attempts_in_one_line() throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort(); // closed again before the CLI connects: nothing listens there
        }
        Run r = feed("epochs", "--index-table", "orders-index", "--endpoint", "http://localhost:" + port);

        assertThat(r.exit()).isEqualTo(FeedCli.CANNOT_CONNECT);
        assertThat(r.err().lines().toList()).singleElement().asString()
                .startsWith("feed epochs: cannot reach DynamoDB at http://localhost:" + port + ": ")
                .contains("after 3 attempts of at most 2 s each to connect");
    }

    @Test
    void the_clis_clients_are_bounded_to_fail_within_the_stated_time() {
        var client = Connection.client(new Connection.Options("http://localhost:8000", null, null, null, "orders-index"), env::get);

        assertThat(client.maxAttempts()).isEqualTo(Connection.MAX_ATTEMPTS).isEqualTo(3);
        assertThat(client.connectTimeout()).isEqualTo(Connection.CONNECT_TIMEOUT).isEqualTo(Duration.ofSeconds(2));
        assertThat(Connection.MAX_ATTEMPTS * Connection.CONNECT_TIMEOUT.toSeconds())
                .as("attempts × connect timeout, plus the SDK's back-off of well under a second").isLessThan(Connection.DEAD_ENDPOINT_SECONDS);
    }

    /** The SDK reads the process's own variables, which a test cannot unset: where one gives a region or credentials, skip. */
    private static void assumeNoAwsVariables() {
        assumeTrue(Stream.of("AWS_REGION", "AWS_DEFAULT_REGION", "AWS_PROFILE", "AWS_ACCESS_KEY_ID", "AWS_WEB_IDENTITY_TOKEN_FILE",
                "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI", "AWS_CONTAINER_CREDENTIALS_FULL_URI").allMatch(v -> System.getenv(v) == null),
                "an AWS variable is set in this process's environment");
    }

    private void set(String property, String value) {
        saved.putIfAbsent(property, System.getProperty(property));
        System.setProperty(property, value);
    }

    private Run feed(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = FeedCli.commandLine(env::get, new PrintWriter(out, true), new PrintWriter(err, true)).execute(args);
        return new Run(exit, out.toString(), err.toString());
    }
}

package io.appendsfeed.indexer.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(LocalDynamoExtension.class)
class FeedCliUsageTest {

    private CliFeed feed;

    @BeforeEach
    void setUp(LocalDynamo local) {
        feed = new CliFeed(local, 1);
    }

    @Test
    void no_command_exits_2_and_names_the_commands() {
        CliFeed.Run r = feed.feed();
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("no command given", "checkpoints", "epochs", "tail", "parked", "verify", "Try 'feed --help'");
    }

    @Test
    void misspelt_command_exits_2_and_suggests_the_right_one() {
        CliFeed.Run r = feed.feed("chekpoints");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("'chekpoints'").contains("Did you mean").contains("checkpoints");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void unknown_option_exits_2_with_the_usage_of_that_command() {
        CliFeed.Run r = feed.feed("epochs", "--partitoin", "0");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("Unknown options: '--partitoin'").contains("Possible solutions: --partition").contains("Usage: feed epochs")
                .contains("Try 'feed epochs --help'");
    }

    @Test
    void missing_index_table_says_which_option_or_variable_to_set() {
        feed.env.remove("APPENDS_INDEX_TABLE");
        CliFeed.Run r = feed.feed("epochs");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("no index table given: pass --index-table NAME or set APPENDS_INDEX_TABLE");
    }

    @Test
    void index_table_that_does_not_exist_exits_2_saying_what_to_pass() {
        CliFeed.Run r = feed.feed("checkpoints", "--index-table", "no-such-table");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("index table 'no-such-table' does not exist at " + feed.local.endpoint()
                + " (from APPENDS_DYNAMODB_ENDPOINT): pass --index-table or set APPENDS_INDEX_TABLE");
        assertThat(r.err().lines().toList()).hasSize(1);
    }

    @Test
    void verify_without_a_store_table_says_how_to_name_it() {
        feed.env.remove("APPENDS_STORE_TABLE");
        CliFeed.Run r = feed.feed("verify");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("no store table given: pass --store-table NAME or set APPENDS_STORE_TABLE");
    }

    @Test
    void options_win_over_environment_variables() {
        String real = feed.env.put("APPENDS_INDEX_TABLE", "no-such-table");
        assertThat(feed.feed("epochs").exit()).isEqualTo(2);
        CliFeed.Run r = feed.feed("epochs", "--index-table", real);
        assertThat(r.exit()).as(r.err()).isEqualTo(0);
        assertThat(r.out()).contains("index table '" + real + "'");
    }

    @Test
    void a_parent_commands_options_apply_to_its_subcommands() {
        String table = feed.env.remove("APPENDS_INDEX_TABLE");
        CliFeed.Run r = feed.feed("checkpoints", "--index-table", table, "history", "--group", "projector");
        assertThat(r.exit()).as(r.err()).isEqualTo(0);
        assertThat(r.out()).contains("group projector: no checkpoint was ever set explicitly");
    }

    @Test
    void unreachable_endpoint_exits_3_and_says_what_to_check_in_one_line() {
        feed.env.put("APPENDS_DYNAMODB_ENDPOINT", "http://127.0.0.1:1");
        CliFeed.Run r = feed.feed("epochs");
        assertThat(r.exit()).isEqualTo(FeedCli.CANNOT_CONNECT);
        assertThat(r.err().lines().toList()).singleElement().asString()
                .startsWith("feed epochs: cannot reach DynamoDB at http://127.0.0.1:1 (from APPENDS_DYNAMODB_ENDPOINT): ")
                .contains("check --endpoint / --region");
    }

    @Test
    void invalid_group_name_exits_2_naming_the_allowed_characters() {
        CliFeed.Run r = feed.feed("checkpoints", "--group", "bad_group");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("consumer group 'bad_group' is not valid").contains("letters, digits");
    }

    @Test
    void a_malformed_endpoint_is_exit_2_with_one_line_naming_it() {
        CliFeed.Run r = feed.feed("epochs", "--endpoint", "htp:/localhost:8000");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err().lines().toList()).containsExactly(
                "feed epochs: --endpoint: 'htp:/localhost:8000' is not an http(s) URL with a host: give http(s)://host[:port], e.g. http://localhost:8000");

        feed.env.put("APPENDS_DYNAMODB_ENDPOINT", "localhost 8000");
        CliFeed.Run fromEnv = feed.feed("epochs");
        assertThat(fromEnv.exit()).isEqualTo(2);
        assertThat(fromEnv.err()).startsWith("feed epochs: APPENDS_DYNAMODB_ENDPOINT: 'localhost 8000' is not a URL");
        assertThat(fromEnv.err().lines().toList()).hasSize(1);
    }

    @Test
    void the_sdk_endpoint_variable_is_used_and_named_in_errors() {
        String endpoint = feed.env.remove("APPENDS_DYNAMODB_ENDPOINT");
        feed.env.put("AWS_ENDPOINT_URL_DYNAMODB", endpoint);

        assertThat(feed.feed("epochs").exit()).isEqualTo(0);
        CliFeed.Run missing = feed.feed("epochs", "--index-table", "no-such-table");
        assertThat(missing.err()).contains("does not exist at " + endpoint + " (from AWS_ENDPOINT_URL_DYNAMODB)").doesNotContain("AWS us-east-1");
    }

    @Test
    void a_malformed_region_or_number_is_exit_2_with_one_line() {
        CliFeed.Run region = feed.feed("epochs", "--region", "Europe West");
        assertThat(region.exit()).isEqualTo(2);
        assertThat(region.err().lines().toList()).containsExactly(
                "feed epochs: --region 'Europe West' is not an AWS region name: give one like eu-west-1 or us-east-1");

        CliFeed.Run partition = feed.feed("epochs", "--partition", "one");
        assertThat(partition.exit()).isEqualTo(2);
        assertThat(partition.err().lines().toList()).hasSize(1);
        assertThat(partition.err()).contains("'one' is not an int");
    }

    @Test
    void an_unknown_profile_is_exit_2_naming_the_profiles_there_are(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path config = dir.resolve("config");
        java.nio.file.Files.writeString(config, "[profile ops]\nregion = eu-west-1\n");
        java.nio.file.Path credentials = dir.resolve("credentials");
        java.nio.file.Files.writeString(credentials, "[ops]\naws_access_key_id = local\naws_secret_access_key = local\n");
        String oldConfig = System.setProperty("aws.configFile", config.toString());
        String oldCredentials = System.setProperty("aws.sharedCredentialsFile", credentials.toString());
        try {
            CliFeed.Run r = feed.feed("epochs", "--profile", "opps");
            assertThat(r.exit()).isEqualTo(2);
            assertThat(r.err()).contains("--profile 'opps' is not in your AWS config or credentials file; profiles there: ops");
            // a named profile's credentials are used even on a loopback endpoint (DynamoDB Local keys its tables by them)
            CliFeed.Run ops = feed.feed("epochs", "--profile", "ops", "--region", "us-east-1");
            assertThat(ops.exit()).as(ops.err()).isEqualTo(0);
        } finally {
            restore("aws.configFile", oldConfig);
            restore("aws.sharedCredentialsFile", oldCredentials);
        }
    }

    @Test
    void every_command_answers_help() {
        java.util.List<String> seen = new java.util.ArrayList<>();
        helpOf(io.appendsfeed.indexer.cli.FeedCli.commandLine(feed.env::get, new java.io.PrintWriter(java.io.Writer.nullWriter()),
                new java.io.PrintWriter(java.io.Writer.nullWriter())), new java.util.ArrayList<>(), seen);
        assertThat(seen).contains("checkpoints", "checkpoints set", "checkpoints delete", "checkpoints history", "epochs", "tail",
                "parked", "parked release", "verify");
    }

    private void helpOf(picocli.CommandLine cmd, java.util.List<String> path, java.util.List<String> seen) {
        for (java.util.Map.Entry<String, picocli.CommandLine> sub : cmd.getSubcommands().entrySet()) {
            if (sub.getKey().equals("help")) {
                continue;
            }
            java.util.List<String> args = new java.util.ArrayList<>(path);
            args.add(sub.getKey());
            java.util.List<String> withHelp = new java.util.ArrayList<>(args);
            withHelp.add("--help");
            CliFeed.Run r = feed.feed(withHelp.toArray(String[]::new));
            assertThat(r.exit()).as(String.join(" ", withHelp)).isEqualTo(0);
            assertThat(r.out()).as(String.join(" ", withHelp)).contains("Usage: feed " + String.join(" ", args));
            seen.add(String.join(" ", args));
            helpOf(sub.getValue(), args, seen);
        }
    }

    private static void restore(String property, String old) {
        if (old == null) {
            System.clearProperty(property);
        } else {
            System.setProperty(property, old);
        }
    }

    @Test
    void help_exits_0_and_lists_exit_codes_and_commands() {
        CliFeed.Run r = feed.feed("--help");
        assertThat(r.exit()).isEqualTo(0);
        assertThat(r.out()).contains("checkpoints", "epochs", "tail", "parked", "verify", "Exit codes: 0 fine, 1 a problem");
    }
}

package io.appendsfeed.reader.cli;

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
                + ": pass --index-table or set APPENDS_INDEX_TABLE");
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
    void unreachable_endpoint_exits_1_and_says_what_to_check() {
        feed.env.put("APPENDS_DYNAMODB_ENDPOINT", "http://127.0.0.1:1");
        CliFeed.Run r = feed.feed("epochs");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).contains("DynamoDB failed").contains("Check --endpoint / --region");
    }

    @Test
    void invalid_group_name_exits_2_naming_the_allowed_characters() {
        CliFeed.Run r = feed.feed("checkpoints", "--group", "bad_group");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("consumer group 'bad_group' is not valid").contains("letters, digits");
    }

    @Test
    void help_exits_0_and_lists_exit_codes_and_commands() {
        CliFeed.Run r = feed.feed("--help");
        assertThat(r.exit()).isEqualTo(0);
        assertThat(r.out()).contains("checkpoints", "epochs", "tail", "parked", "verify", "Exit codes: 0 fine, 1 a problem");
    }
}

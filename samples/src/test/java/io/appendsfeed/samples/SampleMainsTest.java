package io.appendsfeed.samples;

import static org.assertj.core.api.Assertions.assertThat;

import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import io.appendsfeed.samples.bank.AccountId;
import io.appendsfeed.samples.bank.BankSample;
import io.appendsfeed.samples.bank.Notification;
import io.appendsfeed.samples.projector.ProjectorSample;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Each sample's story, as its main runs it, on fresh tables. */
@ExtendWith(LocalDynamoExtension.class)
class SampleMainsTest {

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

    private String printed() {
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void bank_sample_rejects_past_the_limit_and_notifies_each_overdraft_once(LocalDynamo local) {
        List<Notification> sent = BankSample.run(local.dynamo(), local.streams(), local.freshTableName("bank"), out);
        assertThat(sent).extracting(Notification::id).containsExactly("Account-ann@3", "Account-ann@7");
        assertThat(sent).extracting(Notification::account).containsOnly(AccountId.of("ann"));
        assertThat(printed()).contains("REJECTED: withdrawing 8000 from a balance of -7000 would pass the overdraft limit of 10000");
    }

    @Test
    void projector_sample_rebuilds_a_table_equal_to_the_store(LocalDynamo local) throws Exception {
        assertThat(ProjectorSample.run(local.dynamo(), local.streams(), local.freshTableName("projector"), out)).isEmpty();
        assertThat(printed()).contains("the query table EQUALS the fold of every stream in the store");
    }
}

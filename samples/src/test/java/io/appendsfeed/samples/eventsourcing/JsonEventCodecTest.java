package io.appendsfeed.samples.eventsourcing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.EventData;
import io.appendsfeed.model.store.StoredEvent;
import io.appendsfeed.samples.bank.AccountEvent;
import io.appendsfeed.samples.todo.TodoEvent;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class JsonEventCodecTest {

    private static final StreamName STREAM = StreamName.parse("Account-1");
    private final JsonEventCodec<AccountEvent> codec = JsonEventCodec.forSealed(AccountEvent.class);

    private static StoredEvent stored(String type, byte[] data) {
        return new StoredEvent(STREAM, 4, Instant.EPOCH, type, data, null, null, null);
    }

    @Test
    void type_is_the_record_name_and_body_its_fields() {
        EventData data = codec.encode(new AccountEvent.Deposited("t1", 500));
        assertThat(data.type()).isEqualTo("Deposited");
        assertThat(new String(data.data(), StandardCharsets.UTF_8)).isEqualTo("{\"txId\":\"t1\",\"amount\":500}");
        assertThat(codec.decode(stored(data.type(), data.data()))).isEqualTo(new AccountEvent.Deposited("t1", 500));
    }

    @Test
    void records_without_fields_round_trip() {
        JsonEventCodec<TodoEvent> todo = JsonEventCodec.forSealed(TodoEvent.class);
        EventData data = todo.encode(new TodoEvent.Deleted());
        assertThat(todo.decode(stored(data.type(), data.data()))).isEqualTo(new TodoEvent.Deleted());
    }

    @Test
    void unknown_type_names_the_event_and_the_known_types() {
        assertThatThrownBy(() -> codec.decode(stored("Closed", "{}".getBytes(StandardCharsets.UTF_8))))
                .isInstanceOf(UnknownEventException.class)
                .hasMessageContaining("Account-1@4").hasMessageContaining("Closed").hasMessageContaining("Deposited");
    }

    @Test
    void body_not_loaded_or_not_json_is_a_clear_error() {
        assertThatThrownBy(() -> codec.decode(stored("Deposited", null))).hasMessageContaining("not loaded");
        assertThatThrownBy(() -> codec.decode(stored("Deposited", "nope".getBytes(StandardCharsets.UTF_8))))
                .isInstanceOf(UnknownEventException.class).hasMessageContaining("Deposited");
    }
}

package io.appendsfeed.samples.todo;

import static org.assertj.core.api.Assertions.assertThat;

import io.appendsfeed.samples.eventsourcing.CommandDecision;
import org.junit.jupiter.api.Test;

class TodoDeciderTest {

    private static final TodoState MILK = TodoState.INITIAL.evolve(new TodoEvent.Created("home", "milk"));

    @Test
    void create_on_a_new_stream_creates_and_on_an_existing_one_is_rejected() {
        assertThat(Todos.decide(TodoState.INITIAL, new TodoCommand.Create("home", "milk")))
                .isEqualTo(CommandDecision.accept(new TodoEvent.Created("home", "milk")));
        assertThat(Todos.decide(MILK, new TodoCommand.Create("home", "milk"))).isInstanceOf(CommandDecision.Reject.class);
    }

    @Test
    void update_records_only_what_changed() {
        assertThat(Todos.decide(MILK, new TodoCommand.Update(null, "oat milk", true)))
                .isEqualTo(CommandDecision.accept(new TodoEvent.Retitled("oat milk"), new TodoEvent.Completed()));
        assertThat(Todos.decide(MILK, new TodoCommand.Update("home", "milk", false))).isEqualTo(CommandDecision.accept());
    }

    @Test
    void reopening_a_completed_todo_is_an_event() {
        TodoState done = MILK.evolve(new TodoEvent.Completed());
        assertThat(Todos.decide(done, new TodoCommand.Update(null, "milk", false)))
                .isEqualTo(CommandDecision.accept(new TodoEvent.Reopened()));
    }

    @Test
    void moving_to_another_list_is_rejected() {
        assertThat(Todos.decide(MILK, new TodoCommand.Update("work", "milk", false))).isInstanceOf(CommandDecision.Reject.class);
    }

    @Test
    void delete_is_an_event_and_a_deleted_todo_takes_no_more_commands() {
        assertThat(Todos.decide(MILK, new TodoCommand.Delete())).isEqualTo(CommandDecision.accept(new TodoEvent.Deleted()));
        TodoState deleted = MILK.evolve(new TodoEvent.Deleted());
        assertThat(deleted.status()).isEqualTo(TodoState.Status.DELETED);
        assertThat(deleted.title()).isEqualTo("milk");
        assertThat(Todos.decide(deleted, new TodoCommand.Delete())).isEqualTo(CommandDecision.reject("todo was deleted"));
        assertThat(Todos.decide(TodoState.INITIAL, new TodoCommand.Delete())).isEqualTo(CommandDecision.reject("no such todo"));
    }
}

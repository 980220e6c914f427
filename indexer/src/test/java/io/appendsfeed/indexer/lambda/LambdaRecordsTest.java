package io.appendsfeed.indexer.lambda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.appendsfeed.indexer.ChangeRecord;
import io.appendsfeed.indexer.Indexer;
import io.appendsfeed.model.feed.Span;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class LambdaRecordsTest {

    @Test
    void aws_shaped_event_converts_to_records_the_parser_reads() {
        List<ChangeRecord> records = LambdaRecords.convert(LambdaEventJson.resource("two-appends-and-noise.json")).records();
        assertThat(records).extracting(ChangeRecord::sequenceNumber).containsExactly(
                "400000000000000499660", "400000000000000499661", "400000000000000499662", "400000000000000499663",
                "400000000000000499664");
        ChangeRecord first = records.get(0);
        assertThat(first.eventName()).isEqualTo("INSERT");
        assertThat(first.viewType()).isEqualTo("NEW_IMAGE");
        assertThat(first.approximateCreation()).isEqualTo(Instant.ofEpochSecond(1732350000));
        // the image keeps what the parser reads; bodies, most of a Tip's bytes, are not copied, and the
        // types and times come as strings
        assertThat(first.newImage()).containsKeys("n", "a").doesNotContainKeys("c", "e", "u");
        assertThat(first.eventTypes()).containsExactly("Opened", "Deposited");
        assertThat(first.eventTimes()).as("the events' t, in order").hasSize(first.eventTypes().size())
                .allSatisfy(t -> assertThat(t).isNotBlank());

        List<Indexer.Parsed> parsed = records.stream().map(Indexer::parse).toList();
        assertThat(((Indexer.Parsed.Spanned) parsed.get(0)).span().span()).isEqualTo(Span.of("Account-17", 0, "Opened", "Deposited"));
        assertThat(((Indexer.Parsed.Spanned) parsed.get(1)).span().span()).isEqualTo(Span.of("Account-17", 2, "Withdrawn"));
        assertThat(((Indexer.Parsed.Spanned) parsed.get(1)).span().writtenAt()).isEqualTo(Instant.ofEpochSecond(1732350001));
        assertThat(parsed.get(2)).isEqualTo(new Indexer.Parsed.Skipped(Indexer.Parsed.SkipReason.NO_NEW_EVENTS));
        assertThat(parsed.get(3)).isEqualTo(new Indexer.Parsed.Skipped(Indexer.Parsed.SkipReason.CALF));
        assertThat(parsed.get(4)).isEqualTo(new Indexer.Parsed.Skipped(Indexer.Parsed.SkipReason.REMOVE));
    }

    @Test
    void releasing_a_large_batch_keeps_the_times_of_the_new_events_and_the_one_before_and_parses_alike() {
        List<ChangeRecord> viewed = LambdaRecords.convert(LambdaEventJson.resource("two-appends-and-noise.json")).records();
        var event = LambdaEventJson.resource("two-appends-and-noise.json");
        List<ChangeRecord> released = LambdaRecords.convert(event, true).records();

        assertThat(event.getRecords()).as("the images are dropped from the event")
                .allSatisfy(r -> assertThat(r.getDynamodb().getNewImage()).isNull());
        // the second record's Tip holds events 0..2, of which the write appended 1 (event 2)
        List<String> times = released.get(1).eventTimes();
        List<String> all = viewed.get(1).eventTimes();
        assertThat(times).hasSize(3);
        assertThat(times.get(0)).as("older than the event before the span: not kept").isNull();
        assertThat(times.subList(1, 3)).containsExactlyElementsOf(all.subList(1, 3)).doesNotContainNull();
        assertThat(released.stream().map(LambdaRecordsTest::parsed).toList()).isEqualTo(viewed.stream().map(LambdaRecordsTest::parsed).toList())
                .contains("Account-17@2[Withdrawn] of Account-17@0[Opened, Deposited, Withdrawn] at 2024-11-23T08:20:01Z");
    }

    /** What the indexer reads of a record, its event times aside (a function, without equality). */
    private static String parsed(ChangeRecord r) {
        Indexer.Parsed p = Indexer.parse(r);
        return p instanceof Indexer.Parsed.Spanned s ? s.span().span() + " of " + s.span().tip() + " at " + s.span().writtenAt() : p.toString();
    }

    @Test
    void a_new_events_type_that_is_not_a_string_rejects_the_record_naming_it() {
        var event = LambdaEventJson.resource("two-appends-and-noise.json");
        var c = event.getRecords().get(0).getDynamodb().getNewImage().get("c");
        c.getL().set(1, new com.amazonaws.services.lambda.runtime.events.models.dynamodb.AttributeValue().withN("7"));
        ChangeRecord r = LambdaRecords.convert(event).records().get(0);
        assertThat(((Indexer.Parsed.Rejected) Indexer.parse(r)).rejected().reason())
                .contains("attribute c holds", "non-empty string (S)", "event type 2 of 2", "400000000000000499660");
    }

    @Test
    void an_older_type_that_is_not_a_string_is_read_only_to_heal_and_then_named() {
        var event = LambdaEventJson.resource("two-appends-and-noise.json");
        // the second record's Tip holds Opened, Deposited, Withdrawn; its write appended Withdrawn only
        var c = event.getRecords().get(1).getDynamodb().getNewImage().get("c");
        c.getL().set(0, new com.amazonaws.services.lambda.runtime.events.models.dynamodb.AttributeValue().withN("7"));
        ChangeRecord r = LambdaRecords.convert(event).records().get(1);

        var spanned = (Indexer.Parsed.Spanned) Indexer.parse(r);
        assertThat(spanned.span().span()).isEqualTo(Span.of("Account-17", 2, "Withdrawn"));
        assertThatThrownBy(() -> spanned.span().tip()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("attribute c holds").hasMessageContaining("event type 1 of 3")
                .hasMessageContaining("400000000000000499661");
    }

    @Test
    void keys_only_record_has_no_image_and_is_rejected() {
        ChangeRecord r = LambdaRecords.convert(LambdaEventJson.resource("keys-only.json")).records().get(0);
        assertThat(r.newImage()).isNull();
        assertThat(Indexer.parse(r)).isInstanceOf(Indexer.Parsed.Rejected.class);
    }

    @Test
    void conversion_stops_at_a_record_without_a_sequence_number_and_names_it() {
        LambdaRecords.Converted c = LambdaRecords.convert(LambdaEventJson.resource("no-sequence-number.json"));
        assertThat(c.records()).extracting(ChangeRecord::sequenceNumber).containsExactly("400000000000000499660");
        assertThat(c.unidentified()).isEqualTo(new LambdaRecords.Unidentified(1, 3, "c9f0f895fb98ab9159f51fd0297e236d",
                "dynamodb.SequenceNumber"));
        assertThat(c.unidentified().toString()).contains("c9f0f895fb98ab9159f51fd0297e236d", "2 of 3", "no dynamodb.SequenceNumber");
    }
}

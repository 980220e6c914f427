package io.appendsfeed.indexer.lambda;

import static org.assertj.core.api.Assertions.assertThat;

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
        return Indexer.parse(r) instanceof Indexer.Parsed.Spanned s
                ? s.span().span() + " of " + s.span().tip() + " at " + s.span().writtenAt() : Indexer.parse(r).toString();
    }

    @Test
    void types_that_are_not_all_strings_stay_in_the_image_for_the_parser_to_name() {
        var event = LambdaEventJson.resource("two-appends-and-noise.json");
        var c = event.getRecords().get(0).getDynamodb().getNewImage().get("c");
        c.getL().set(1, new com.amazonaws.services.lambda.runtime.events.models.dynamodb.AttributeValue().withN("7"));
        ChangeRecord r = LambdaRecords.convert(event).records().get(0);
        assertThat(r.eventTypes()).isNull();
        assertThat(r.newImage()).containsKey("c");
        assertThat(((Indexer.Parsed.Rejected) Indexer.parse(r)).rejected().reason()).contains("attribute c holds", "non-empty string (S)");
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

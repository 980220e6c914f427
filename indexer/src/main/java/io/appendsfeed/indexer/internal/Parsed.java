package io.appendsfeed.indexer.internal;

import io.appendsfeed.indexer.RejectedRecord;
import io.appendsfeed.indexer.SourceSpan;

/** What {@link RecordParser} made of one record. */
public sealed interface Parsed {

    /** Why a record carries nothing to index. */
    enum SkipReason { REMOVE, CALF, NO_NEW_EVENTS, RESERVED_STREAM }

    /** A Tip write that appended events. */
    record Spanned(SourceSpan span) implements Parsed {}

    /** A record of the store format with nothing to index. */
    record Skipped(SkipReason reason) implements Parsed {}

    /** A record that is not of the store format. */
    record Rejected(RejectedRecord rejected) implements Parsed {}
}

package io.appendsfeed.indexer.lambda.logging;

import org.slf4j.event.Level;

/** Where finished lines go: the Lambda runtime's logger, or a test's list. */
interface LogSink {

    /** A line already formatted (text, or a JSON object); one CloudWatch Logs event. */
    void write(byte[] line, Level level);
}

package io.appendsfeed.indexer.lambda.logging;

import com.amazonaws.services.lambda.runtime.LambdaRuntime;
import com.amazonaws.services.lambda.runtime.logging.LogLevel;
import org.slf4j.event.Level;

/**
 * The Lambda runtime's logger ({@link LambdaRuntime#getLogger()}): with the level, so that the
 * runtime applies the function's application log level too, and as bytes, which it writes as one
 * event without formatting them again. Outside Lambda it writes to stdout.
 */
enum LambdaRuntimeSink implements LogSink {
    INSTANCE;

    @Override
    public void write(byte[] line, Level level) {
        LambdaRuntime.getLogger().log(line, switch (level) {
            case TRACE -> LogLevel.TRACE;
            case DEBUG -> LogLevel.DEBUG;
            case INFO -> LogLevel.INFO;
            case WARN -> LogLevel.WARN;
            case ERROR -> LogLevel.ERROR;
        });
    }
}

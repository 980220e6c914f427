package io.appendsfeed.indexer.lambda.logging;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.ILoggerFactory;
import org.slf4j.Logger;

/** One {@link LambdaLogger} per name. */
final class LambdaLoggerFactory implements ILoggerFactory {

    private final LambdaLogSettings settings;
    private final LogSink sink;
    private final Map<String, Logger> loggers = new ConcurrentHashMap<>();

    LambdaLoggerFactory(LambdaLogSettings settings, LogSink sink) {
        this.settings = settings;
        this.sink = sink;
    }

    @Override
    public Logger getLogger(String name) {
        return loggers.computeIfAbsent(name, n -> new LambdaLogger(n, settings.json(), settings.levelOf(n), sink));
    }
}

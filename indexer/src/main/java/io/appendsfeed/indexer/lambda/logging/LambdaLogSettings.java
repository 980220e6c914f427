package io.appendsfeed.indexer.lambda.logging;

import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import org.slf4j.event.Level;

/**
 * What the function's logging configuration says, from the variables Lambda sets for it:
 * {@code AWS_LAMBDA_LOG_FORMAT} ({@code JSON} or {@code Text}) and {@code AWS_LAMBDA_LOG_LEVEL}
 * (the application log level, set with JSON format; INFO when absent). The AWS SDK and its HTTP
 * client log at WARN and above only, however low the level: their DEBUG lines are per request.
 *
 * @param json lines as JSON objects
 * @param level the least severe level written
 */
public record LambdaLogSettings(boolean json, Level level) {

    public static final String FORMAT = "AWS_LAMBDA_LOG_FORMAT";
    public static final String LEVEL = "AWS_LAMBDA_LOG_LEVEL";
    /** Loggers (by name prefix) held at WARN at least. */
    static final Map<String, Level> QUIET = Map.of("software.amazon.awssdk", Level.WARN, "org.apache.http", Level.WARN);

    public static LambdaLogSettings from(Function<String, String> env) {
        String format = env.apply(FORMAT);
        String level = env.apply(LEVEL);
        Level threshold = Level.INFO;
        if (level != null && !level.isBlank()) {
            String l = level.trim().toUpperCase(Locale.ROOT);
            threshold = switch (l) {
                case "TRACE" -> Level.TRACE;
                case "DEBUG" -> Level.DEBUG;
                case "WARN" -> Level.WARN;
                case "ERROR", "FATAL" -> Level.ERROR;
                default -> Level.INFO;
            };
        }
        return new LambdaLogSettings(format != null && format.trim().equalsIgnoreCase("JSON"), threshold);
    }

    /** The least severe level written for a logger of this name. */
    Level levelOf(String logger) {
        Level l = level;
        for (Map.Entry<String, Level> q : QUIET.entrySet()) {
            if (logger.startsWith(q.getKey()) && q.getValue().toInt() > l.toInt()) {
                l = q.getValue();
            }
        }
        return l;
    }
}

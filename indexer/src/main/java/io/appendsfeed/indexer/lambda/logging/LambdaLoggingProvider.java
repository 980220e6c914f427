package io.appendsfeed.indexer.lambda.logging;

import com.amazonaws.services.lambda.runtime.LambdaRuntime;
import com.amazonaws.services.lambda.runtime.logging.LogLevel;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.slf4j.ILoggerFactory;
import org.slf4j.IMarkerFactory;
import org.slf4j.Logger;
import org.slf4j.event.Level;
import org.slf4j.helpers.BasicMDCAdapter;
import org.slf4j.helpers.BasicMarkerFactory;
import org.slf4j.spi.MDCAdapter;
import org.slf4j.spi.SLF4JServiceProvider;

/**
 * The Lambda jar's SLF4J binding: every line goes to the Lambda runtime's own logger, which honours the
 * function's logging configuration and sends each line to CloudWatch Logs as one event. The format and
 * level come from the variables Lambda sets: {@code AWS_LAMBDA_LOG_FORMAT} ({@code JSON}: one JSON object a
 * line, see {@link LambdaLogger}; otherwise text) and {@code AWS_LAMBDA_LOG_LEVEL} (INFO when absent). The
 * AWS SDK and its HTTP client log at WARN and above only, however low the level: their DEBUG lines are
 * per request. Registered only in the Lambda jar ({@code deploy/slf4j-provider}); the library leaves the
 * binding to its users.
 */
public final class LambdaLoggingProvider implements SLF4JServiceProvider {

    public static final String FORMAT = "AWS_LAMBDA_LOG_FORMAT";
    public static final String LEVEL = "AWS_LAMBDA_LOG_LEVEL";
    /** Loggers (by name prefix) held at WARN at least. */
    static final Map<String, Level> QUIET = Map.of("software.amazon.awssdk", Level.WARN, "org.apache.http", Level.WARN);

    private final BasicMarkerFactory markers = new BasicMarkerFactory();
    private final BasicMDCAdapter mdc = new BasicMDCAdapter();
    private ILoggerFactory loggers;

    @Override
    public void initialize() {
        loggers = loggers(System::getenv, LambdaLoggingProvider::runtime);
    }

    /** One logger per name, as the variables say, writing to {@code sink}. */
    static ILoggerFactory loggers(Function<String, String> env, LambdaLogger.Sink sink) {
        String format = env.apply(FORMAT);
        boolean json = format != null && format.trim().equalsIgnoreCase("JSON");
        String level = env.apply(LEVEL);
        Level threshold = switch (level == null ? "" : level.trim().toUpperCase(Locale.ROOT)) {
            case "TRACE" -> Level.TRACE;
            case "DEBUG" -> Level.DEBUG;
            case "WARN" -> Level.WARN;
            case "ERROR", "FATAL" -> Level.ERROR;
            default -> Level.INFO;
        };
        Map<String, Logger> made = new ConcurrentHashMap<>();
        return name -> made.computeIfAbsent(name, n -> new LambdaLogger(n, json, levelOf(n, threshold), sink));
    }

    /** The least severe level written for a logger of this name. */
    private static Level levelOf(String logger, Level threshold) {
        Level l = threshold;
        for (Map.Entry<String, Level> q : QUIET.entrySet()) {
            if (logger.startsWith(q.getKey()) && q.getValue().toInt() > l.toInt()) {
                l = q.getValue();
            }
        }
        return l;
    }

    /**
     * To the Lambda runtime's logger, with the level, so that the runtime applies the function's application
     * log level too, and as bytes, which it writes as one event without formatting them again. Outside Lambda
     * it writes to stdout.
     */
    static void runtime(byte[] line, Level level) {
        LambdaRuntime.getLogger().log(line, LogLevel.valueOf(level.name()));
    }

    @Override
    public ILoggerFactory getLoggerFactory() {
        return loggers;
    }

    @Override
    public IMarkerFactory getMarkerFactory() {
        return markers;
    }

    @Override
    public MDCAdapter getMDCAdapter() {
        return mdc;
    }

    @Override
    public String getRequestedApiVersion() {
        return "2.0.99";
    }
}

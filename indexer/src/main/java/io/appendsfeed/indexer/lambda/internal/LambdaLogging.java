package io.appendsfeed.indexer.lambda.internal;

import com.amazonaws.services.lambda.runtime.LambdaLogger;
import com.amazonaws.services.lambda.runtime.LambdaRuntime;
import com.amazonaws.services.lambda.runtime.logging.LogLevel;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Locale;
import org.slf4j.ILoggerFactory;
import org.slf4j.IMarkerFactory;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.BasicMarkerFactory;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;
import org.slf4j.helpers.NOPMDCAdapter;
import org.slf4j.spi.MDCAdapter;
import org.slf4j.spi.SLF4JServiceProvider;

/**
 * The Lambda jar's SLF4J binding: every line goes through {@link LambdaRuntime#getLogger()} with
 * its level, so that with the function's JSON log format it is a JSON object (message, level,
 * time, request id) and Lambda itself filters it by the function's application log level
 * ({@code AWS_LAMBDA_LOG_LEVEL}). Registered only in the Lambda jar (its service file comes from
 * {@code deploy/}); users of the library keep their own binding.
 */
public final class LambdaLogging implements SLF4JServiceProvider {

    /** The level below which nothing is formatted: Lambda's own setting, INFO when unset. */
    static final Level THRESHOLD = level(System.getenv("AWS_LAMBDA_LOG_LEVEL"), Level.INFO);
    /** The SDK's and the HTTP client's INFO and DEBUG lines are noise in a function's log. */
    private static final Level LIBRARIES = Level.WARN;

    private final IMarkerFactory markers = new BasicMarkerFactory();
    private final MDCAdapter mdc = new NOPMDCAdapter();
    private final ILoggerFactory loggers = Logger::new;

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

    @Override
    public void initialize() {
        // nothing to set up: LambdaRuntime's logger is there from the start
    }

    static Level level(String name, Level dflt) {
        if (name == null || name.isBlank()) {
            return dflt;
        }
        try {
            return Level.valueOf(name.trim().toUpperCase(Locale.ROOT).replace("FATAL", "ERROR"));
        } catch (IllegalArgumentException e) {
            return dflt;
        }
    }

    /** One named logger; the short name (after the last dot) leads each line. */
    static final class Logger extends LegacyAbstractLogger {

        private static final long serialVersionUID = 1L;
        private final transient Level threshold;
        private final String shortName;

        Logger(String name) {
            this.name = name;
            this.shortName = name.substring(name.lastIndexOf('.') + 1);
            boolean library = name.startsWith("software.amazon.awssdk") || name.startsWith("org.apache.http");
            this.threshold = library && LIBRARIES.toInt() > THRESHOLD.toInt() ? LIBRARIES : THRESHOLD;
        }

        private boolean enabled(Level level) {
            return level.toInt() >= threshold.toInt();
        }

        @Override public boolean isTraceEnabled() { return enabled(Level.TRACE); }
        @Override public boolean isDebugEnabled() { return enabled(Level.DEBUG); }
        @Override public boolean isInfoEnabled() { return enabled(Level.INFO); }
        @Override public boolean isWarnEnabled() { return enabled(Level.WARN); }
        @Override public boolean isErrorEnabled() { return enabled(Level.ERROR); }

        @Override
        protected String getFullyQualifiedCallerName() {
            return null;
        }

        @Override
        protected void handleNormalizedLoggingCall(Level level, Marker marker, String pattern, Object[] args, Throwable t) {
            StringBuilder line = new StringBuilder(shortName).append(" - ").append(MessageFormatter.basicArrayFormat(pattern, args));
            if (t != null) {
                StringWriter trace = new StringWriter();
                t.printStackTrace(new PrintWriter(trace));
                line.append('\n').append(trace);
            }
            LambdaLogger logger = LambdaRuntime.getLogger();
            if (logger.getClass().getName().startsWith(LambdaRuntime.class.getName())) {
                // outside the Lambda runtime (a local run of the jar): LambdaRuntime's stand-in would print to stdout
                // without a line end; stderr with the level, as a plain binding would
                System.err.println("[" + level + "] " + line);
            } else {
                logger.log(line.toString(), LogLevel.valueOf(level.name()));
            }
        }
    }
}

package io.appendsfeed.indexer.lambda.logging;

import com.amazonaws.services.lambda.runtime.LambdaRuntime;
import com.amazonaws.services.lambda.runtime.logging.LogLevel;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.slf4j.ILoggerFactory;
import org.slf4j.IMarkerFactory;
import org.slf4j.Logger;
import org.slf4j.MDC;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.BasicMDCAdapter;
import org.slf4j.helpers.BasicMarkerFactory;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;
import org.slf4j.spi.MDCAdapter;
import org.slf4j.spi.SLF4JServiceProvider;

/**
 * The Lambda jar's SLF4J binding: every line goes to the Lambda runtime's logger, one CloudWatch Logs event
 * each, as a JSON object at the level Lambda sets ({@code AWS_LAMBDA_LOG_LEVEL}, INFO when absent): Lambda's own
 * fields ({@code timestamp, level, logger, message, errorType, errorMessage, stackTrace}) and the MDC's. JSON
 * whatever {@code AWS_LAMBDA_LOG_FORMAT} says, as Powertools logs: the template sets JSON, and Logs Insights finds
 * the fields in a Text log group too. The AWS SDK logs at WARN and above only. Registered only in the Lambda jar;
 * the library leaves the binding to its users.
 */
public final class LambdaLoggingProvider implements SLF4JServiceProvider {

    public static final String LEVEL = "AWS_LAMBDA_LOG_LEVEL";
    private static final JsonFactory JSON = new JsonFactory();

    /** Where finished lines go: the Lambda runtime's logger, or a test's list. */
    interface Sink {
        void write(byte[] line, Level level);
    }

    private final BasicMarkerFactory markers = new BasicMarkerFactory();
    private final BasicMDCAdapter mdc = new BasicMDCAdapter();
    private ILoggerFactory loggers;

    @Override
    public void initialize() {
        loggers = loggers(System::getenv, LambdaLoggingProvider::runtime);
    }

    /** One logger per name, as the variables say, writing to {@code sink}. */
    static ILoggerFactory loggers(Function<String, String> env, Sink sink) {
        String level = env.apply(LEVEL);
        Level threshold = switch (level == null ? "" : level.trim().toUpperCase(Locale.ROOT)) {
            case "TRACE" -> Level.TRACE;
            case "DEBUG" -> Level.DEBUG;
            case "WARN" -> Level.WARN;
            case "ERROR", "FATAL" -> Level.ERROR;
            default -> Level.INFO;
        };
        Map<String, Logger> made = new ConcurrentHashMap<>();
        return name -> made.computeIfAbsent(name, n -> {
            boolean quiet = n.startsWith("software.amazon.awssdk") || n.startsWith("org.apache.http");
            return new LambdaLogger(n, quiet && threshold.toInt() < Level.WARN.toInt() ? Level.WARN : threshold, sink);
        });
    }

    /** To the Lambda runtime's logger, with the level (the runtime applies the function's log level too); stdout outside Lambda. */
    static void runtime(byte[] line, Level level) {
        LambdaRuntime.getLogger().log(line, LogLevel.valueOf(level.name()));
    }

    @Override public ILoggerFactory getLoggerFactory() { return loggers; }
    @Override public IMarkerFactory getMarkerFactory() { return markers; }
    @Override public MDCAdapter getMDCAdapter() { return mdc; }
    @Override public String getRequestedApiVersion() { return "2.0.99"; }

    private static final class LambdaLogger extends LegacyAbstractLogger {

        private static final long serialVersionUID = 1L;

        private final Level threshold;
        private final transient Sink sink;

        LambdaLogger(String name, Level threshold, Sink sink) {
            this.name = name;
            this.threshold = threshold;
            this.sink = sink;
        }

        private boolean on(Level level) {
            return level.toInt() >= threshold.toInt();
        }

        @Override public boolean isTraceEnabled() { return on(Level.TRACE); }
        @Override public boolean isDebugEnabled() { return on(Level.DEBUG); }
        @Override public boolean isInfoEnabled() { return on(Level.INFO); }
        @Override public boolean isWarnEnabled() { return on(Level.WARN); }
        @Override public boolean isErrorEnabled() { return on(Level.ERROR); }

        @Override
        protected String getFullyQualifiedCallerName() {
            return null;
        }

        @Override
        protected void handleNormalizedLoggingCall(Level level, Marker marker, String pattern, Object[] args, Throwable thrown) {
            String message = MessageFormatter.basicArrayFormat(pattern, args);
            Map<String, String> context = MDC.getCopyOfContextMap();
            ByteArrayOutputStream out = new ByteArrayOutputStream(256);
            try (JsonGenerator g = JSON.createGenerator(out)) {
                g.writeStartObject();
                g.writeStringField("timestamp", Instant.now().toString());
                g.writeStringField("level", level.name());
                g.writeStringField("logger", name);
                g.writeStringField("message", message);
                if (context != null) {
                    for (Map.Entry<String, String> e : context.entrySet()) {
                        if (e.getValue() != null) {
                            g.writeStringField(e.getKey(), e.getValue());
                        }
                    }
                }
                if (thrown != null) {
                    g.writeStringField("errorType", thrown.getClass().getName());
                    g.writeStringField("errorMessage", String.valueOf(thrown.getMessage()));
                    g.writeArrayFieldStart("stackTrace");
                    StringWriter trace = new StringWriter();
                    thrown.printStackTrace(new PrintWriter(trace));
                    for (String line : trace.toString().split("\\R")) {
                        g.writeString(line.strip());
                    }
                    g.writeEndArray();
                }
                g.writeEndObject();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot happen: writing to memory", e);
            }
            out.write('\n');
            sink.write(out.toByteArray(), level);
        }
    }
}

package io.appendsfeed.indexer.lambda.logging;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import org.slf4j.MDC;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;

/**
 * One logger of the Lambda binding. In JSON format a line is
 * {@code {"timestamp", "level", "logger", "message", "AWSRequestId", <MDC entries>, "errorType",
 * "errorMessage", "stackTrace"}}: the fields of Lambda's own JSON lines (and of AWS's log4j2
 * layout for Lambda), plus the MDC (the indexer puts {@code shard} there), each a field that Logs
 * Insights can filter on. In text format: {@code LEVEL logger - message key=value...} and the stack
 * trace, one event.
 */
final class LambdaLogger extends LegacyAbstractLogger {

    private static final JsonFactory JSON = new JsonFactory();
    private static final long serialVersionUID = 1L;

    private final boolean json;
    private final Level threshold;
    private final transient Sink sink;
    private final String shortName;

    /** Where finished lines go: the Lambda runtime's logger, or a test's list. */
    interface Sink {
        /** A line already formatted (text, or a JSON object); one CloudWatch Logs event. */
        void write(byte[] line, Level level);
    }

    LambdaLogger(String name, boolean json, Level threshold, Sink sink) {
        this.name = name;
        this.json = json;
        this.threshold = threshold;
        this.sink = sink;
        this.shortName = name.substring(name.lastIndexOf('.') + 1);
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
        sink.write(json ? json(level, message, context, thrown) : text(level, message, context, thrown), level);
    }

    private byte[] json(Level level, String message, Map<String, String> context, Throwable thrown) {
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
                for (String line : stackTrace(thrown).split("\\R")) {
                    g.writeString(line.strip());
                }
                g.writeEndArray();
            }
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot happen: writing to memory", e);
        }
        out.write('\n');
        return out.toByteArray();
    }

    private byte[] text(Level level, String message, Map<String, String> context, Throwable thrown) {
        StringBuilder sb = new StringBuilder(message.length() + 64).append(level.name()).append(' ').append(shortName)
                .append(" - ").append(message);
        if (context != null) {
            context.forEach((k, v) -> sb.append(' ').append(k).append('=').append(v));
        }
        if (thrown != null) {
            sb.append('\n').append(stackTrace(thrown).stripTrailing());
        }
        return sb.append('\n').toString().getBytes(StandardCharsets.UTF_8);
    }

    private static String stackTrace(Throwable t) {
        StringWriter w = new StringWriter();
        t.printStackTrace(new PrintWriter(w));
        return w.toString();
    }
}

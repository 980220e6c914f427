package io.appendsfeed.indexer.lambda.logging;

import org.slf4j.ILoggerFactory;
import org.slf4j.IMarkerFactory;
import org.slf4j.helpers.BasicMDCAdapter;
import org.slf4j.helpers.BasicMarkerFactory;
import org.slf4j.spi.MDCAdapter;
import org.slf4j.spi.SLF4JServiceProvider;

/**
 * The Lambda jar's SLF4J binding: every line goes to the Lambda runtime's own logger, which honours
 * the function's logging configuration (JSON or text, application log level) and sends each line
 * to CloudWatch Logs as one event. Registered only in the Lambda jar ({@code deploy/slf4j-provider});
 * the library leaves the binding to its users.
 */
public final class LambdaLoggingProvider implements SLF4JServiceProvider {

    private final BasicMarkerFactory markers = new BasicMarkerFactory();
    private final BasicMDCAdapter mdc = new BasicMDCAdapter();
    private LambdaLoggerFactory loggers;

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
        loggers = new LambdaLoggerFactory(LambdaLogSettings.from(System::getenv), LambdaRuntimeSink.INSTANCE);
    }
}

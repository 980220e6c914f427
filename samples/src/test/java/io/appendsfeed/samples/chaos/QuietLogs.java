package io.appendsfeed.samples.chaos;

/**
 * Thousands of injected faults each log a WARN with a stack trace: these tests keep their output to
 * their reports unless asked otherwise ({@code -Dorg.slf4j.simpleLogger.defaultLogLevel=info} to
 * replay a seed with logs). Only takes effect if no logger was created yet in this JVM.
 */
final class QuietLogs {

    private QuietLogs() {}

    static void unlessAsked() {
        if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
            System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "error");
        }
    }
}

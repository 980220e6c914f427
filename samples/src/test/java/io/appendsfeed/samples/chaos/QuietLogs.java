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
            // system properties win over simplelogger.properties, key by key
            for (String key : new String[] {"defaultLogLevel", "log.io.appendsfeed.indexer", "log.io.appendsfeed.reader"}) {
                System.setProperty("org.slf4j.simpleLogger." + key, "error");
            }
        }
    }
}

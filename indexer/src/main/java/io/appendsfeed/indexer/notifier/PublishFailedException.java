package io.appendsfeed.indexer.notifier;

import java.util.List;

/**
 * The destination refused some notifications. The notifier's invocation fails, so that Lambda
 * delivers the index records again and the notifications are sent again (reactors take repeats in
 * their stride).
 */
public class PublishFailedException extends RuntimeException {

    private final String destination;
    private final List<String> failures;

    /**
     * @param destination the topic (or queue)
     * @param failures one line per refused message: the partition, the error code and message
     */
    public PublishFailedException(String destination, List<String> failures) {
        super(failures.size() + " notification(s) refused by " + destination + ": " + String.join("; ", failures));
        this.destination = destination;
        this.failures = List.copyOf(failures);
    }

    public String destination() {
        return destination;
    }

    public List<String> failures() {
        return failures;
    }
}

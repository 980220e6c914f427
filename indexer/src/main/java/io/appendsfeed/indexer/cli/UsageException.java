package io.appendsfeed.indexer.cli;

/**
 * The command cannot run as typed or configured (a missing option, a table that does not exist,
 * a value out of range). The message says what to type instead; {@code feed} exits with 2.
 */
final class UsageException extends RuntimeException {

    UsageException(String message) {
        super(message);
    }

    UsageException(String message, Throwable cause) {
        super(message, cause);
    }
}

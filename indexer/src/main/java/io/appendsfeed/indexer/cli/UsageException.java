package io.appendsfeed.indexer.cli;

/**
 * The command cannot run as typed or configured (a missing option, a table that does not exist,
 * a value out of range). The message says what to type instead; the CLI exits with 2.
 */
public final class UsageException extends RuntimeException {

    public UsageException(String message) {
        super(message);
    }

    public UsageException(String message, Throwable cause) {
        super(message, cause);
    }
}

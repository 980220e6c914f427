package io.appendsfeed.indexer.cli;

/**
 * The command cannot run as typed or configured; the message (one line) says what to type or supply instead,
 * and {@code feed} exits with {@link #exit}: {@link FeedCli#USAGE} or {@link FeedCli#CANNOT_CONNECT}.
 */
final class CliException extends RuntimeException {

    final int exit;

    CliException(String message) {
        this(FeedCli.USAGE, message, null);
    }

    CliException(String message, Throwable cause) {
        this(FeedCli.USAGE, message, cause);
    }

    CliException(int exit, String message, Throwable cause) {
        super(message, cause);
        this.exit = exit;
    }
}

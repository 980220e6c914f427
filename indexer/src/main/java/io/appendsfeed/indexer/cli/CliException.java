package io.appendsfeed.indexer.cli;

/**
 * The command cannot run as typed or configured, and the message (one line) says what to type or supply
 * instead: {@code feed} exits with {@link #exit}, {@link FeedCli#USAGE} (a missing option, a table that does
 * not exist, a value out of range) or {@link FeedCli#CANNOT_CONNECT} (no region, no credentials, DynamoDB
 * does not answer or refuses the credentials).
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

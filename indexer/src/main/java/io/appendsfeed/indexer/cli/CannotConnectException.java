package io.appendsfeed.indexer.cli;

/**
 * DynamoDB cannot be reached or will not take the credentials, or what it takes to try (a region,
 * credentials) is missing: {@code feed} exits with {@link FeedCli#CANNOT_CONNECT} and prints the
 * message, one line saying what is missing and how to supply it.
 */
final class CannotConnectException extends RuntimeException {

    CannotConnectException(String message, Throwable cause) {
        super(message, cause);
    }
}

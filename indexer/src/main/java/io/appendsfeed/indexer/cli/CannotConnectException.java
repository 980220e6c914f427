package io.appendsfeed.indexer.cli;

/**
 * DynamoDB cannot be reached or will not take the credentials, or what it takes to try is missing:
 * {@code feed} exits with {@link FeedCli#CANNOT_CONNECT} and prints the message, one line saying what
 * is missing and how to supply it.
 */
public final class CannotConnectException extends RuntimeException {

    /** What stands in the way. */
    public enum Missing {
        /** no region from the options, the environment or the profile */
        REGION,
        /** no credentials from the options, the environment, the profile or the machine's role */
        CREDENTIALS,
        /** the endpoint does not answer (refused, unknown host, timed out) */
        ENDPOINT,
        /** DynamoDB answered, and refused the credentials */
        AUTHENTICATION
    }

    private final Missing missing;

    public CannotConnectException(Missing missing, String message, Throwable cause) {
        super(message, cause);
        this.missing = java.util.Objects.requireNonNull(missing, "missing");
    }

    public Missing missing() {
        return missing;
    }
}

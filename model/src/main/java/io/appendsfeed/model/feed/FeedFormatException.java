package io.appendsfeed.model.feed;

/**
 * An event body of the feed's own streams that this version cannot read: an unknown event type
 * (written by a newer format), a missing or mistyped field, or text that is not JSON.
 */
public class FeedFormatException extends RuntimeException {

    private final String eventType;

    public FeedFormatException(String eventType, String message) {
        super(message);
        this.eventType = eventType;
    }

    public FeedFormatException(String eventType, String message, Throwable cause) {
        super(message, cause);
        this.eventType = eventType;
    }

    /** The event type whose body could not be read. */
    public String eventType() {
        return eventType;
    }
}

package io.appendsfeed.model.feed;

/** An event of the feed's own streams this version cannot read: an unknown type (a newer format) or a bad body. */
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

    public String eventType() {
        return eventType;
    }
}

package io.appendsfeed.samples.bank;

/**
 * Where outbound notifications go (an e-mail gateway, a queue, an outbox table). Implementations
 * must be idempotent by {@link Notification#id()}: the feed delivers at least once.
 */
public interface Outbox {

    /**
     * Publishes the notification unless one with the same id was published before.
     *
     * @return true when published now, false when it had been already (nothing sent again)
     * @throws RuntimeException when it cannot publish; the reactor then fails the batch and the
     *         feed delivers the event again
     */
    boolean publish(Notification notification);
}

package io.appendsfeed.samples.bank;

/**
 * Where outbound notifications go (an e-mail gateway, a queue, an outbox table). Implementations
 * must be idempotent by {@link Notification#id()}: the feed delivers at least once.
 */
public interface Outbox {

    /**
     * @return true when published now, false when one with the same id was before (nothing sent again)
     * @throws RuntimeException when it cannot publish; the feed then delivers the event again
     */
    boolean publish(Notification notification);
}

package io.appendsfeed.samples.bank;

import java.util.Objects;

/**
 * "Your account is overdrawn", sent once per overdraft.
 *
 * @param id the idempotency key: the stream and index of the {@code Overdrawn} event it reports,
 *           e.g. {@code Account-42@7}, so that a redelivered event yields the same id
 */
public record Notification(String id, AccountId account, long balance, long overdraftLimit, String txId) {

    public Notification {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(account, "account");
    }
}

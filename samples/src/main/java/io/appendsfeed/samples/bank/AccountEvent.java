package io.appendsfeed.samples.bank;

/** What happens to an account. Amounts are in cents; {@code txId} names the transaction that caused it. */
public sealed interface AccountEvent {

    record Opened(String owner, long overdraftLimit) implements AccountEvent {}

    record Deposited(String txId, long amount) implements AccountEvent {}

    record Withdrawn(String txId, long amount) implements AccountEvent {}

    /**
     * The balance went below zero (it was zero or more before): the start of one overdraft. A
     * notification goes out for each, once.
     */
    record Overdrawn(String txId, long balance, long overdraftLimit) implements AccountEvent {}
}

package io.appendsfeed.samples.bank;

/** What a client asks of an account. Amounts are in cents. */
public sealed interface AccountCommand {

    record Open(String owner, long overdraftLimit) implements AccountCommand {
        public Open {
            if (owner == null || owner.isBlank()) {
                throw new IllegalArgumentException("an account needs an owner");
            }
            if (overdraftLimit < 0) {
                throw new IllegalArgumentException("overdraft limit must be >= 0 cents, was " + overdraftLimit);
            }
        }
    }

    record Deposit(String txId, long amount) implements AccountCommand {
        public Deposit {
            if (amount <= 0) {
                throw new IllegalArgumentException("a deposit must be > 0 cents, was " + amount);
            }
        }
    }

    record Withdraw(String txId, long amount) implements AccountCommand {
        public Withdraw {
            if (amount <= 0) {
                throw new IllegalArgumentException("a withdrawal must be > 0 cents, was " + amount);
            }
        }
    }
}

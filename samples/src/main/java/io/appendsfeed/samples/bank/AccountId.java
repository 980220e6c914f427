package io.appendsfeed.samples.bank;

import io.appendsfeed.model.StreamName;
import java.util.regex.Pattern;

/** An account number; its stream is {@code Account-<id>}. */
public record AccountId(String value) {

    public static final String CATEGORY = "Account";
    private static final Pattern VALID = Pattern.compile("[A-Za-z0-9._]{1,64}");

    public AccountId {
        if (value == null || !VALID.matcher(value).matches()) {
            throw new IllegalArgumentException("account id '" + value + "' is not valid: use 1 to 64 letters, digits, '.' or '_'");
        }
    }

    public static AccountId of(String value) {
        return new AccountId(value);
    }

    public StreamName stream() {
        return StreamName.of(CATEGORY, value);
    }

    /**
     * @throws IllegalArgumentException when the stream is not an account's
     */
    public static AccountId of(StreamName stream) {
        if (!stream.category().equals(CATEGORY)) {
            throw new IllegalArgumentException(stream + " is not an account stream (category " + CATEGORY + ")");
        }
        return new AccountId(stream.id());
    }

    @Override
    public String toString() {
        return value;
    }
}

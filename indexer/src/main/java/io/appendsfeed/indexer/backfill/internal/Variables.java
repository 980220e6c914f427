package io.appendsfeed.indexer.backfill.internal;

import java.util.Locale;
import java.util.function.Function;

/**
 * Reading settings from variables (the environment, or the operations CLI's options in their
 * place): numbers and required text, with errors that name the variable and what it takes. Pure.
 */
public final class Variables {

    private Variables() {}

    /** A positive whole number, or {@code dflt} when unset. */
    public static int number(Function<String, String> env, String name, int dflt, int min) {
        String v = env.apply(name);
        if (v == null || v.isBlank()) {
            return dflt;
        }
        try {
            int n = Integer.parseInt(v.trim().replace("_", ""));
            if (n < min) {
                throw new NumberFormatException("below " + min);
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " is '" + v + "': give a whole number >= " + min + " (default " + dflt + ")", e);
        }
    }

    /** Required text. */
    public static String text(Function<String, String> env, String name, String what) {
        String v = env.apply(name);
        if (v == null || v.isBlank()) {
            throw new IllegalArgumentException(name + " is not set: set it (or pass --" + name.replaceFirst("^APPENDS_", "")
                    .toLowerCase(Locale.ROOT).replace('_', '-') + " to feed) to " + what);
        }
        return v.trim();
    }
}

package io.appendsfeed.indexer.backfill.internal;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * Command-line options as settings: {@code --store-table x} or {@code --store-table=x} is read as
 * the variable {@code APPENDS_STORE_TABLE} and wins over the environment. Pure.
 */
public final class Arguments {

    private Arguments() {}

    /** @throws IllegalArgumentException for an argument that is not {@code --name value} or {@code --name=value} */
    public static Function<String, String> over(String[] args, Function<String, String> env) {
        Map<String, String> given = new HashMap<>();
        for (int k = 0; k < args.length; k++) {
            String a = args[k];
            if (!a.startsWith("--") || a.length() < 3) {
                throw new IllegalArgumentException("unexpected argument '" + a + "': give options as --name value or --name=value");
            }
            int eq = a.indexOf('=');
            String name = eq < 0 ? a.substring(2) : a.substring(2, eq);
            String value;
            if (eq >= 0) {
                value = a.substring(eq + 1);
            } else if (k + 1 < args.length) {
                value = args[++k];
            } else {
                throw new IllegalArgumentException("option --" + name + " has no value");
            }
            given.put(variable(name), value);
        }
        return v -> given.containsKey(v) ? given.get(v) : env.apply(v);
    }

    /** {@code store-table} → {@code APPENDS_STORE_TABLE}; {@code aws-region} → {@code AWS_REGION}. */
    public static String variable(String option) {
        String v = option.toUpperCase(Locale.ROOT).replace('-', '_');
        return v.startsWith("AWS_") ? v : "APPENDS_" + v;
    }

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
            throw new IllegalArgumentException(name + " is not set: set it (or --" + name.replaceFirst("^APPENDS_", "")
                    .toLowerCase(Locale.ROOT).replace('_', '-') + ") to " + what);
        }
        return v.trim();
    }
}

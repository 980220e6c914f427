package io.appendsfeed.indexer.deploy;

import java.util.Collection;
import java.util.regex.Pattern;

/**
 * Test support: IAM's {@code StringLike} as policies evaluate it: {@code *} any run of characters,
 * {@code ?} one character, and the escapes {@code ${*}}, {@code ${?}}, {@code ${$}} for those characters
 * themselves. Other policy variables are not expected in our templates and are refused.
 */
final class IamStringLike {

    private IamStringLike() {}

    static boolean matches(String pattern, String value) {
        return regex(pattern).matcher(value).matches();
    }

    static boolean matchesAny(Collection<String> patterns, String value) {
        return patterns.stream().anyMatch(p -> matches(p, value));
    }

    static Pattern regex(String pattern) {
        StringBuilder re = new StringBuilder();
        for (int k = 0; k < pattern.length(); k++) {
            char c = pattern.charAt(k);
            if (c == '$' && pattern.startsWith("${", k)) {
                int end = pattern.indexOf('}', k);
                String variable = pattern.substring(k + 2, end);
                if (!variable.equals("$") && !variable.equals("*") && !variable.equals("?")) {
                    throw new IllegalArgumentException("policy variable ${" + variable + "} in " + pattern);
                }
                re.append(Pattern.quote(variable));
                k = end;
            } else if (c == '*') {
                re.append(".*");
            } else if (c == '?') {
                re.append('.');
            } else {
                re.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(re.toString(), Pattern.DOTALL);
    }
}

package io.appendsfeed.indexer.deploy;

import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Test support: IAM's {@code StringLike} as policies evaluate it: {@code *} any run of characters,
 * {@code ?} one character, the escapes {@code ${*}}, {@code ${?}}, {@code ${$}} for those characters
 * themselves, and principal tags ({@code ${aws:PrincipalTag/<key>}}), replaced by the tag's value as
 * literal text; a pattern naming a tag the principal does not carry matches nothing (IAM cannot
 * resolve it). Other policy variables are not expected in our templates and are refused.
 */
final class IamStringLike {

    static final String PRINCIPAL_TAG = "aws:PrincipalTag/";

    private IamStringLike() {}

    static boolean matches(String pattern, String value) {
        return matches(pattern, value, Map.of());
    }

    /** @param principalTags the principal's tags, key to value */
    static boolean matches(String pattern, String value, Map<String, String> principalTags) {
        return regex(pattern, principalTags).map(r -> r.matcher(value).matches()).orElse(false);
    }

    static boolean matchesAny(Collection<String> patterns, String value) {
        return matchesAny(patterns, value, Map.of());
    }

    static boolean matchesAny(Collection<String> patterns, String value, Map<String, String> principalTags) {
        return patterns.stream().anyMatch(p -> matches(p, value, principalTags));
    }

    /** Empty when the pattern names a principal tag not in {@code principalTags}. */
    static Optional<Pattern> regex(String pattern, Map<String, String> principalTags) {
        StringBuilder re = new StringBuilder();
        for (int k = 0; k < pattern.length(); k++) {
            char c = pattern.charAt(k);
            if (c == '$' && pattern.startsWith("${", k)) {
                int end = pattern.indexOf('}', k);
                String variable = pattern.substring(k + 2, end);
                if (variable.startsWith(PRINCIPAL_TAG)) {
                    String tag = principalTags.get(variable.substring(PRINCIPAL_TAG.length()));
                    if (tag == null) {
                        return Optional.empty();
                    }
                    re.append(Pattern.quote(tag));
                } else if (variable.equals("$") || variable.equals("*") || variable.equals("?")) {
                    re.append(Pattern.quote(variable));
                } else {
                    throw new IllegalArgumentException("policy variable ${" + variable + "} in " + pattern);
                }
                k = end;
            } else if (c == '*') {
                re.append(".*");
            } else if (c == '?') {
                re.append('.');
            } else {
                re.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Optional.of(Pattern.compile(re.toString(), Pattern.DOTALL));
    }
}

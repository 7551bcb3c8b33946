package io.kproxy.source.kube.internal;

import java.util.regex.Pattern;

/**
 * Removes what may be a credential from text that is about to be logged or kept as the source's
 * last error: the value of a {@code Bearer}/{@code Basic} authorization (the JDK's
 * {@code invalid header value} message quotes the whole header) and anything shaped like a JSON
 * Web Token (service account tokens are JWTs). A guard behind the rule that credentials never
 * reach a message in the first place. Stateless.
 */
public final class Redactor {

    private static final Pattern AUTHORIZATION = Pattern.compile("(?i)\\b(Bearer|Basic)\\s+[^\\s\"',;]+");
    private static final Pattern JWT = Pattern.compile("eyJ[A-Za-z0-9_-]{4,}\\.[A-Za-z0-9_-]{4,}(\\.[A-Za-z0-9_-]*)?");

    private Redactor() {
    }

    /** {@code text} with credentials replaced by {@code [redacted]}; null becomes "". */
    public static String scrub(String text) {
        if (text == null) {
            return "";
        }
        String s = AUTHORIZATION.matcher(text).replaceAll("$1 [redacted]");
        return JWT.matcher(s).replaceAll("[redacted]");
    }
}

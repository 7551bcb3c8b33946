package io.kproxy.app.listen;

/**
 * Text from outside (a client's request, an error naming it) made safe for one quoted value of a
 * {@code key="value"} log line: backslash and double quote escaped, control and line-separator
 * characters written as {@code \n}, {@code \t} or {@code \}{@code uXXXX}, and cut (at 200
 * characters unless told). A client can then neither end the value nor start a forged line (issue 18).
 */
public final class LogValues {

    private static final int MAX = 200;

    private LogValues() {
    }

    /** {@code s} escaped and cut at 200 characters; never null ({@code "null"} for null). */
    public static String escape(String s) {
        return escape(s, MAX);
    }

    /** {@code s} escaped and cut at {@code max} characters. */
    public static String escape(String s, int max) {
        if (s == null) {
            return "null";
        }
        StringBuilder sb = new StringBuilder(Math.min(s.length(), max) + 8);
        int n = Math.min(s.length(), max);
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            switch (c) {
                case '\\' -> sb.append("\\\\");
                case '"' -> sb.append("\\\"");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029' || Character.getType(c) == Character.FORMAT) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        if (s.length() > max) {
            sb.append("...(").append(s.length()).append(" chars)");
        }
        return sb.toString();
    }
}

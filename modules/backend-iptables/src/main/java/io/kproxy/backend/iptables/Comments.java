package io.kproxy.backend.iptables;

/**
 * The text of this backend's {@code -m comment --comment} arguments. Every comment that holds a
 * value (a service port's name, an endpoint) goes through here. Pure and thread-safe.
 *
 * <p>{@code iptables-restore} splits each line into words at blanks, outside double quotes
 * (iptables {@code iptables/xshared.c}, {@code add_param_to_argv}), and reads a line per command:
 * a line feed ends the rule and starts another, a {@code "} inside a quoted comment ends it and
 * the rest becomes options of the rule. The safe form keeps printable ASCII other than {@code "}
 * and {@code \} and makes anything else {@code _}; an unquoted comment (upstream writes the
 * service port's name bare in {@code KUBE-NODEPORTS}, {@code pkg/proxy/iptables/proxier.go})
 * also loses its blanks. Upstream puts only validated names in comments and so do we
 * ({@code io.kproxy.model.ServicePortName}): for every real input this changes nothing and the
 * output stays upstream's byte for byte. It is the second line of defence.
 */
final class Comments {

    private Comments() {
    }

    /** {@code "text"}, as upstream writes a comment with spaces ({@code fmt.Sprintf(`"%s ..."`)}), made safe. */
    static String quoted(String text) {
        return "\"" + replace(text, false) + "\"";
    }

    /** {@code text} as one unquoted word. */
    static String word(String text) {
        return replace(text, true);
    }

    private static String replace(String text, boolean word) {
        StringBuilder b = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean safe = c > 0x20 && c < 0x7F && c != '"' && c != '\\' || c == ' ' && !word;
            if (!safe && b == null) {
                b = new StringBuilder(text.length()).append(text, 0, i);
            }
            if (b != null) {
                b.append(safe ? c : '_');
            }
        }
        return b == null ? text : b.toString();
    }
}

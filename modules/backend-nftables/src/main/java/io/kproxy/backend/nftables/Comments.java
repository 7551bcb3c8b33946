package io.kproxy.backend.nftables;

/**
 * The text of this backend's comments: {@code comment "..."} on elements, chains, sets and
 * rules, and the {@code # ...} lines of the ruleset text. Every comment that holds a value (a
 * service port's name) goes through here. Pure and thread-safe.
 *
 * <p>Why replacing and not escaping: nft's scanner reads a quoted string as {@code "[^"]*"}
 * (nftables {@code src/scanner.l}, {@code quotedstring}) with no escape sequence, so a {@code "}
 * inside a comment ends it and the rest is parsed as statements, and a line feed ends the
 * command. The only safe form is one without them: printable ASCII other than {@code "} and
 * {@code \} stays, anything else becomes {@code _}. Inside the quotes {@code ;}, {@code #} and
 * braces are inert. knftables writes comments with Go's {@code %q}
 * (kubernetes-sigs/knftables {@code objects.go}), which is safe only because kube-proxy puts
 * nothing but validated names in them ({@code pkg/proxy/nftables/proxier.go}); our names are
 * validated too ({@code io.kproxy.model.ServicePortName}), so for every real input this changes
 * nothing and the output is upstream's byte for byte. It is the second line of defence, for a
 * value a future change would let through.
 */
final class Comments {

    private Comments() {
    }

    /** {@code text} safe between the quotes of {@code comment "..."} and on a {@code #} line. */
    static String text(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (!safe(text.charAt(i))) {
                StringBuilder b = new StringBuilder(text.length());
                for (int j = 0; j < text.length(); j++) {
                    char c = text.charAt(j);
                    b.append(safe(c) ? c : '_');
                }
                return b.toString();
            }
        }
        return text;
    }

    private static boolean safe(char c) {
        return c >= 0x20 && c < 0x7F && c != '"' && c != '\\';
    }
}

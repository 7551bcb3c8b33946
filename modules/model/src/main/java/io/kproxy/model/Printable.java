package io.kproxy.model;

/**
 * Text from the outside world (an API object, a journal record, a file, a socket) made safe to
 * print on one line of a terminal, a log or a {@code #} comment of a ruleset, and the check of an
 * opaque token such as a {@code resourceVersion}. Pure and thread-safe.
 *
 * <p>Why one escaping for all three: each of them is line-oriented, and what breaks each is the
 * same set of characters. A line feed (and, for some readers, a carriage return, U+0085,
 * U+2028 or U+2029) ends the line, so the rest of the value becomes a line of its own: a rule
 * after a {@code #} comment in {@code nft -f} / {@code iptables-restore} text (issue 18: a
 * resourceVersion holding <code>"\n}\ntable inet x &#123;...&#125;"</code> added a chain with {@code policy
 * drop}), a forged entry in a log. ESC and the other C0/C1 controls drive a terminal (colours,
 * cursor moves, the window title), and format characters (U+202E and the other bidi controls,
 * zero-width spaces) make a line read differently from what it holds. Escaping keeps every such
 * character visible as text instead of refusing the whole value: the value is still shown, one
 * line per value, whatever it holds.
 *
 * <p>The escaping is idempotent: its output holds nothing it would change, so a message escaped
 * where it is made ({@link InvalidValueException}) and escaped again by each layer that wraps it
 * (a decoder's, a command's) reads the same. That is why a backslash is left as it is: doubling
 * it would double again at each layer. The price is that {@code \n} in the output may also be a
 * backslash and an {@code n} in the value; nothing can be injected either way.
 */
public final class Printable {

    private Printable() {
    }

    /**
     * {@code text} with every character that is not safe on one line escaped: {@code \n},
     * {@code \r}, {@code \t}, {@code \xHH} for the other characters up to U+00FF and
     * <code>&#92;uHHHH</code> above; everything else as it is. The result has no control, format, line or
     * paragraph separator character and no unpaired surrogate.
     */
    public static String escape(String text) {
        if (text == null) {
            return "null";
        }
        int first = firstToEscape(text);
        if (first < 0) {
            return text;
        }
        StringBuilder b = new StringBuilder(text.length() + 16).append(text, 0, first);
        for (int i = first; i < text.length(); ) {
            int cp = text.codePointAt(i);
            int n = Character.charCount(cp);
            if (isSafe(cp)) {
                b.appendCodePoint(cp);
            } else {
                switch (cp) {
                    case '\n' -> b.append("\\n");
                    case '\r' -> b.append("\\r");
                    case '\t' -> b.append("\\t");
                    default -> b.append(cp <= 0xFF ? String.format("\\x%02x", cp) : String.format("\\u%04x", cp));
                }
            }
            i += n;
        }
        return b.toString();
    }

    /**
     * Whether {@code text} is safe on one line as it is: no control, format, line or paragraph
     * separator character and no unpaired surrogate (what {@link #escape} returns always is).
     */
    public static boolean isPrintable(String text) {
        if (text == null) {
            return false;
        }
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            if (!isSafe(cp)) {
                return false;
            }
            i += Character.charCount(cp);
        }
        return true;
    }

    /**
     * {@code value} if it is an opaque token: printable ({@link #isPrintable}) and without
     * whitespace; "" (unknown) is a token. Kubernetes defines {@code metadata.resourceVersion} as
     * an opaque string that clients must not interpret (apimachinery {@code
     * pkg/apis/meta/v1/types.go}, {@code ObjectMeta.ResourceVersion}); an API server's is a
     * decimal etcd revision. Nothing a real server sends is refused; what is refused could only
     * be meant to end a line or to drive a terminal where the token is printed.
     *
     * @throws InvalidValueException naming {@code field} when it is not
     */
    public static String requireToken(String field, String value) {
        if (value == null) {
            throw new InvalidValueException(field, "null", "must not be null (use \"\" for unknown)");
        }
        for (int i = 0; i < value.length(); ) {
            int cp = value.codePointAt(i);
            if (!isSafe(cp) || Character.isWhitespace(cp) || Character.isSpaceChar(cp)) {
                throw new InvalidValueException(field, value,
                        "must be an opaque token: no whitespace, control, format or line separator character (found U+"
                                + String.format("%04X", cp) + " at index " + i + ")");
            }
            i += Character.charCount(cp);
        }
        return value;
    }

    private static int firstToEscape(String text) {
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            if (!isSafe(cp)) {
                return i;
            }
            i += Character.charCount(cp);
        }
        return -1;
    }

    /**
     * Not a C0/C1 control (which covers LF, CR, U+0085, ESC, DEL and the 8-bit CSI U+009B), not a
     * format character (bidi controls, zero-width characters, BOM), not a line or paragraph
     * separator, not half of a surrogate pair.
     */
    private static boolean isSafe(int cp) {
        if (Character.isISOControl(cp)) {
            return false;
        }
        return switch (Character.getType(cp)) {
            case Character.FORMAT, Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR, Character.SURROGATE -> false;
            default -> true;
        };
    }
}

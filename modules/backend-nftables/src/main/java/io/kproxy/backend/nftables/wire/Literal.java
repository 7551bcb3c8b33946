package io.kproxy.backend.nftables.wire;

import java.util.ArrayList;
import java.util.List;

/**
 * {@link String#split} at a literal separator, without compiling a regular expression per call
 * (a separator of more than one character, such as {@code " . "}, makes {@code split} compile
 * one every time: the compiler splits a few hundred thousand element keys per full sync). Same
 * result as {@code split(Pattern.quote(separator), limit)} for limit 0 (trailing empty strings
 * dropped) and -1 (kept). Pure.
 */
final class Literal {

    private Literal() {
    }

    static String[] split(String text, String separator) {
        return split(text, separator, false);
    }

    static String[] split(String text, String separator, boolean keepTrailingEmpty) {
        int at = text.indexOf(separator);
        if (at < 0) {
            return new String[] {text};
        }
        List<String> out = new ArrayList<>();
        int from = 0;
        while (at >= 0) {
            out.add(text.substring(from, at));
            from = at + separator.length();
            at = text.indexOf(separator, from);
        }
        out.add(text.substring(from));
        int size = out.size();
        if (!keepTrailingEmpty) {
            while (size > 0 && out.get(size - 1).isEmpty()) {
                size--;
            }
        }
        return out.subList(0, size).toArray(String[]::new);
    }
}

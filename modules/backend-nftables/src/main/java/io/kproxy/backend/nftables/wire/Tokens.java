package io.kproxy.backend.nftables.wire;

import java.util.ArrayList;
import java.util.List;

/**
 * The words of one rule: split at spaces outside double quotes, a quoted word kept with its
 * quotes, a trailing comma split off as its own word. Not thread-safe.
 */
final class Tokens {

    private final List<String> words;
    private int at;

    Tokens(String text) {
        words = split(text);
    }

    static List<String> split(String text) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean quoted = false;
        for (char c : text.toCharArray()) {
            if (c == '"') {
                quoted = !quoted;
                cur.append(c);
            } else if (c == ' ' && !quoted) {
                flush(out, cur);
            } else {
                cur.append(c);
            }
        }
        if (quoted) {
            throw new Unsupported("unbalanced quotes in " + text);
        }
        flush(out, cur);
        return out;
    }

    private static void flush(List<String> out, StringBuilder cur) {
        if (cur.isEmpty()) {
            return;
        }
        String w = cur.toString();
        if (w.length() > 1 && w.endsWith(",") && !w.startsWith("\"")) {
            out.add(w.substring(0, w.length() - 1));
            out.add(",");
        } else {
            out.add(w);
        }
        cur.setLength(0);
    }

    boolean more() {
        return at < words.size();
    }

    String peek() {
        return more() ? words.get(at) : "";
    }

    String peek(int ahead) {
        return at + ahead < words.size() ? words.get(at + ahead) : "";
    }

    String next() {
        if (!more()) {
            throw new Unsupported("rule ends early");
        }
        return words.get(at++);
    }

    void expect(String word) {
        String w = next();
        if (!w.equals(word)) {
            throw new Unsupported("expected '" + word + "', found '" + w + "'");
        }
    }

    boolean accept(String word) {
        if (peek().equals(word)) {
            at++;
            return true;
        }
        return false;
    }

    /** A quoted word without its quotes. */
    String quoted() {
        String w = next();
        if (w.length() < 2 || !w.startsWith("\"") || !w.endsWith("\"")) {
            throw new Unsupported("expected a quoted string, found " + w);
        }
        return w.substring(1, w.length() - 1);
    }
}

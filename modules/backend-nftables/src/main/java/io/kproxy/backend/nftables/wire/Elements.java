package io.kproxy.backend.nftables.wire;

import io.kproxy.netlink.NfElement;
import io.kproxy.netlink.NfVerdict;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Element lists of our {@code add|delete element … { … }} commands, encoded for a set's schema.
 * Interval sets take each range as two elements, its start (with the data) and the element that
 * closes it at {@code end + 1} (none when the range reaches the top of the key space); an
 * addition is sorted and, when it does not start at zero, opens with a closing element at zero,
 * as nft 1.0.6 sends it. Pure.
 */
final class Elements {

    private Elements() {
    }

    /** One element of the text: key (a value, a range {@code a-b}, a prefix {@code a/n}, or a concatenation), comment, value. */
    record Parsed(String key, String comment, String value) {
    }

    static List<NfElement> encode(SetSchema s, String list, boolean add) {
        List<Parsed> parsed = split(list).stream().map(Elements::parse).toList();
        return s.interval() ? intervals(s, parsed, add) : plain(s, parsed, add);
    }

    private static List<NfElement> plain(SetSchema s, List<Parsed> parsed, boolean add) {
        List<NfElement> out = new ArrayList<>(parsed.size());
        for (Parsed p : parsed) {
            byte[] key = key(s, p.key(), false);
            if (!add) {
                out.add(NfElement.of(key));
                continue;
            }
            out.add(new NfElement(key, 0, data(s, p.value()), verdict(s, p.value()), p.comment() == null ? null : UserData.comment(p.comment())));
        }
        return out;
    }

    private record Range(byte[] start, byte[] end, Parsed source) {
    }

    private static List<NfElement> intervals(SetSchema s, List<Parsed> parsed, boolean add) {
        if (s.key().size() != 1) {
            throw new Unsupported("interval set with a concatenated key");
        }
        Field f = s.key().getFirst();
        List<Range> ranges = new ArrayList<>();
        for (Parsed p : parsed) {
            ranges.add(range(f, p));
        }
        ranges.sort(Comparator.comparing(Range::start, Arrays::compareUnsigned));
        List<NfElement> out = new ArrayList<>();
        if (add && !isZero(ranges.getFirst().start())) {
            out.add(NfElement.intervalEnd(new byte[f.len]));
        }
        for (Range r : ranges) {
            Parsed p = r.source();
            if (add) {
                out.add(new NfElement(r.start(), 0, data(s, p.value()), verdict(s, p.value()), p.comment() == null ? null : UserData.comment(p.comment())));
            } else {
                out.add(NfElement.of(r.start()));
            }
            byte[] after = Field.increment(r.end());
            if (after != null) {
                out.add(NfElement.intervalEnd(after));
            }
        }
        return out;
    }

    private static Range range(Field f, Parsed p) {
        String k = p.key();
        if (f == Field.NUMGEN) {
            int dash = k.indexOf('-');
            String from = dash < 0 ? k : k.substring(0, dash);
            String to = dash < 0 ? k : k.substring(dash + 1);
            return new Range(f.encode(from, true), f.encode(to, true), p);
        }
        int slash = k.indexOf('/');
        if (slash < 0) {
            byte[] a = f.encode(k, true);
            return new Range(a, a, p);
        }
        byte[] net = f.encode(k.substring(0, slash), true);
        int prefix = Integer.parseInt(k.substring(slash + 1));
        return new Range(Prefix.network(net, prefix), Prefix.last(net, prefix), p);
    }

    private static boolean isZero(byte[] b) {
        for (byte x : b) {
            if (x != 0) {
                return false;
            }
        }
        return true;
    }

    static byte[] key(SetSchema s, String text, boolean networkOrder) {
        String[] parts = Literal.split(text, " . ");
        if (parts.length != s.key().size()) {
            throw new Unsupported("key " + text);
        }
        if (parts.length == 1) {
            return s.key().getFirst().encode(parts[0], networkOrder || s.interval());
        }
        byte[][] values = new byte[parts.length][];
        for (int i = 0; i < parts.length; i++) {
            values[i] = s.key().get(i).encode(parts[i], true);
        }
        return Field.concat(values);
    }

    private static byte[] data(SetSchema s, String value) {
        if (s.data().isEmpty()) {
            return null;
        }
        if (value == null) {
            throw new Unsupported("map element without data");
        }
        String[] parts = Literal.split(value, " . ");
        if (parts.length != s.data().size()) {
            throw new Unsupported("map data " + value);
        }
        byte[][] values = new byte[parts.length][];
        for (int i = 0; i < parts.length; i++) {
            values[i] = s.data().get(i).encode(parts[i], true);
        }
        return Field.concat(values);
    }

    private static NfVerdict verdict(SetSchema s, String value) {
        if (!s.verdict()) {
            if (value != null && s.data().isEmpty()) {
                throw new Unsupported("value in a set element");
            }
            return null;
        }
        if (value == null) {
            throw new Unsupported("verdict map element without a verdict");
        }
        return Verdicts.parse(value);
    }

    /** Splits {@code a, b, c} at commas outside quotes. */
    static List<String> split(String list) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean quoted = false;
        for (char c : list.toCharArray()) {
            if (c == '"') {
                quoted = !quoted;
            } else if (c == ',' && !quoted) {
                out.add(cur.toString().strip());
                cur.setLength(0);
                continue;
            }
            cur.append(c);
        }
        out.add(cur.toString().strip());
        if (out.stream().anyMatch(String::isEmpty)) {
            throw new Unsupported("element list " + list);
        }
        return out;
    }

    /** {@code key [comment "c"] [: value]}. */
    static Parsed parse(String element) {
        String key = element;
        String comment = null;
        String value = null;
        int c = key.indexOf(" comment \"");
        int colon = key.lastIndexOf(" : ");
        if (colon >= 0 && (c < 0 || colon > key.indexOf('"', c + 10))) {
            value = key.substring(colon + 3).strip();
            key = key.substring(0, colon);
        }
        if (c >= 0) {
            int end = key.indexOf('"', c + 10);
            if (end < 0) {
                throw new Unsupported("element " + element);
            }
            comment = key.substring(c + 10, end);
            key = key.substring(0, c);
        }
        return new Parsed(key.strip(), comment, value);
    }
}

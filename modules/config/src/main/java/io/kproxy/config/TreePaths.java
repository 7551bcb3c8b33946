package io.kproxy.config;

import io.kproxy.model.Json;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Removing values from a configuration tree by the paths {@link FieldError}s name
 * ({@code iptables.masqueradeBit}, {@code nodePortAddresses[2]}, {@code logging.vmodule[0].verbosity}),
 * for {@link RecordedConfig}: a dropped field is then defaulted as if it had never been written.
 * A path that does not lead to a value (a key holding a dot, an index past the end) drops
 * nothing. Pure and thread-safe.
 */
final class TreePaths {

    /** Indexes from the highest, so that dropping an array item does not move one still to drop. */
    private static final Comparator<List<Object>> DROP_ORDER = (a, b) -> {
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            Object other = b.get(i);
            int c = switch (a.get(i)) {
                case Integer x when other instanceof Integer y -> Integer.compare(y, x);
                case String x when other instanceof String y -> x.compareTo(y);
                default -> a.get(i) instanceof String ? -1 : 1;
            };
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(b.size(), a.size());
    };

    private TreePaths() {
    }

    /** {@code tree} without the values at {@code paths}. */
    static Json.Obj drop(Json.Obj tree, List<String> paths) {
        List<List<Object>> parsed = new ArrayList<>(paths.stream().map(TreePaths::segments).filter(s -> !s.isEmpty()).toList());
        parsed.sort(DROP_ORDER);
        Json out = tree;
        for (List<Object> path : parsed) {
            out = drop(out, path, 0);
        }
        return (Json.Obj) out;
    }

    /** {@code a.b[2].c} as {@code ["a", "b", 2, "c"]}; empty (nothing to drop) when an index is malformed. */
    static List<Object> segments(String path) {
        List<Object> out = new ArrayList<>();
        StringBuilder key = new StringBuilder();
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c == '.' || c == '[') {
                if (!key.isEmpty()) {
                    out.add(key.toString());
                    key.setLength(0);
                }
                if (c == '[') {
                    int close = path.indexOf(']', i);
                    if (close < 0 || close == i + 1 || close - i > 10 || !path.substring(i + 1, close).chars().allMatch(Character::isDigit)) {
                        return List.of();
                    }
                    out.add(Integer.parseInt(path.substring(i + 1, close)));
                    i = close;
                }
            } else {
                key.append(c);
            }
        }
        if (!key.isEmpty()) {
            out.add(key.toString());
        }
        return out;
    }

    private static Json drop(Json node, List<Object> path, int at) {
        Object seg = path.get(at);
        boolean last = at == path.size() - 1;
        if (node instanceof Json.Obj o && seg instanceof String key && o.fields().containsKey(key)) {
            return last ? o.without(key) : o.with(key, drop(o.fields().get(key), path, at + 1));
        }
        if (node instanceof Json.Arr(List<Json> items) && seg instanceof Integer i && i < items.size()) {
            List<Json> copy = new ArrayList<>(items);
            if (last) {
                copy.remove((int) i);
            } else {
                copy.set(i, drop(items.get(i), path, at + 1));
            }
            return new Json.Arr(copy);
        }
        return node;
    }
}

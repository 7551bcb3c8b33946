package io.kproxy.config;

import io.kproxy.model.Json;
import java.util.Arrays;

/** Test helper: edit a configuration tree by dotted path, as upstream's tests mutate a defaulted struct. */
final class Trees {

    private Trees() {
    }

    /** {@code tree} with the value at {@code dotted} (e.g. {@code iptables.masqueradeBit}) replaced or added. */
    static Json.Obj set(Json.Obj tree, String dotted, Json value) {
        String[] keys = dotted.split("\\.");
        if (keys.length == 1) {
            return tree.with(keys[0], value);
        }
        String rest = String.join(".", Arrays.copyOfRange(keys, 1, keys.length));
        return tree.with(keys[0], set(tree.object(keys[0]), rest, value));
    }

    /** The defaulted configuration with edits applied, alternating dotted paths and values (strings are JSON-ish: see {@link #json}). */
    static ProxyConfig defaultsWith(Object... pathsAndValues) {
        Json.Obj tree = ConfigTrees.toTree(ConfigTrees.defaults());
        for (int i = 0; i < pathsAndValues.length; i += 2) {
            tree = set(tree, (String) pathsAndValues[i], json(pathsAndValues[i + 1]));
        }
        return ConfigTrees.fromTree(tree);
    }

    static Json json(Object v) {
        return switch (v) {
            case Json j -> j;
            case String s -> Json.of(s);
            case Integer n -> Json.of(n);
            case Long n -> Json.of(n);
            case Boolean b -> Json.of(b);
            case String[] items -> Json.arr(Arrays.stream(items).map(Json::of).map(Json.class::cast).toList());
            default -> throw new IllegalArgumentException("unsupported test value " + v);
        };
    }
}

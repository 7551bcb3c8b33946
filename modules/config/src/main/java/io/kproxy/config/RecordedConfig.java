package io.kproxy.config;

import io.kproxy.model.Json;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A recorded configuration tree read leniently ({@link ConfigTrees#readRecorded}): the
 * configuration, and the values refused on the way, each of which was replaced by its default.
 * Immutable and thread-safe.
 *
 * @param config  the configuration, every refused value at its default
 * @param refused the refused values with their paths and reasons, in the order found; empty
 *                when the tree was read as it is
 */
public record RecordedConfig(ProxyConfig config, List<FieldError> refused) {

    /**
     * Binding passes: the first finds the refused values, the second binds without them. One more
     * is spare; a refusal that survives it is reported and keeps the binder's zero value.
     */
    private static final int MAX_PASSES = 3;

    public RecordedConfig {
        if (config == null) {
            throw new IllegalArgumentException("config is required");
        }
        refused = List.copyOf(refused);
    }

    /**
     * Binds, drops every refused value from the tree as written, and binds again, so that the
     * defaulting step fills each dropped field exactly as if it had never been written (a
     * {@code masqueradeBit} of the wrong type becomes 14; an {@code iptables} that is not an object
     * becomes the defaulted section).
     */
    static RecordedConfig read(Json.Obj recorded) {
        boolean v2 = ConfigTrees.isV1alpha2(recorded);
        List<FieldError> reported = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        Json.Obj tree = recorded;
        ProxyConfig config = null;
        for (int pass = 0; pass < MAX_PASSES; pass++) {
            List<FieldError> errors = new ArrayList<>();
            config = bind(tree, v2, errors);
            List<FieldError> refused = errors.stream().filter(e -> !e.reason().equals(TreeReader.UNKNOWN_FIELD)).toList();
            if (refused.isEmpty()) {
                break;
            }
            for (FieldError e : refused) {
                if (seen.add(e.path())) {
                    reported.add(e);
                }
            }
            tree = TreePaths.drop(tree, refused.stream().map(FieldError::path).toList());
        }
        return new RecordedConfig(config, reported);
    }

    private static ProxyConfig bind(Json.Obj tree, boolean v2, List<FieldError> errors) {
        if (v2) {
            return V1alpha2Binder.read(TreeReader.root(V1alpha2Defaults.apply(tree), errors), errors);
        }
        return Binder.read(TreeReader.root(Defaults.apply(tree), errors));
    }
}

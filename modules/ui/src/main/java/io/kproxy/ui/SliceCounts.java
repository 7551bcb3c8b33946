package io.kproxy.ui;

import io.kproxy.model.Json;
import java.util.Optional;

/**
 * How many endpoints of an EndpointSlice are ready, serving and terminating, and which Service it
 * belongs to (label {@code kubernetes.io/service-name}): what a swimlane draws. Conditions left out
 * default as upstream reads them ({@code pkg/proxy/endpointslicecache.go}: ready and serving true,
 * terminating false). Lenient: anything malformed counts as absent; the fold, not this, decides
 * what is programmed. Immutable.
 */
record SliceCounts(String service, int ready, int serving, int terminating) {

    static final SliceCounts NONE = new SliceCounts("", 0, 0, 0);

    static SliceCounts of(Json.Obj slice) {
        String service = slice.object("metadata").object("labels").string("kubernetes.io/service-name").orElse("");
        int ready = 0;
        int serving = 0;
        int terminating = 0;
        for (Json e : slice.array("endpoints")) {
            if (e instanceof Json.Obj endpoint) {
                Json.Obj c = endpoint.object("conditions");
                ready += flag(c.bool("ready"), true);
                serving += flag(c.bool("serving"), true);
                terminating += flag(c.bool("terminating"), false);
            }
        }
        return new SliceCounts(service, ready, serving, terminating);
    }

    private static int flag(Optional<Boolean> value, boolean absent) {
        return value.orElse(absent) ? 1 : 0;
    }
}

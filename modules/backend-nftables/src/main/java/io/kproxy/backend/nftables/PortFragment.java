package io.kproxy.backend.nftables;

import io.kproxy.model.ServicePortName;
import java.util.List;
import java.util.Map;

/**
 * Everything one service port contributes to its family's table: affinity sets (name to timeout
 * in seconds), per-service verdict maps (session affinity), chains, the endpoint dispatches of
 * its policy chains (slots of the shared endpoint maps, with their positions) and elements of the
 * shared sets and maps. A pure value; equal fragments render equal text.
 */
record PortFragment(ServicePortName name, Map<String, Integer> affinitySets, List<NftServiceMap> maps, List<NftChain> chains,
        List<NftDispatch> dispatches, List<NftElement> elements) {

    PortFragment {
        affinitySets = Map.copyOf(affinitySets);
        maps = List.copyOf(maps);
        dispatches = List.copyOf(dispatches);
        chains = List.copyOf(chains);
        elements = List.copyOf(elements);
    }
}

package io.kproxy.backend.ipvs;

import io.kproxy.backend.ipvs.spi.RealServer;
import io.kproxy.backend.ipvs.spi.VirtualServer;
import java.util.List;

/**
 * One virtual server a service port wants, with its real servers and whether its address goes on
 * {@code kube-ipvs0}. Immutable.
 *
 * @param vs    the virtual server
 * @param reals its real servers, weight 1, sorted by {@code ip:port}
 * @param bind  bind the address to the dummy device (not for node addresses)
 */
record VsEntry(VirtualServer vs, List<RealServer> reals, boolean bind) {

    VsEntry {
        if (vs == null) {
            throw new IllegalArgumentException("vs is required");
        }
        reals = List.copyOf(reals);
    }
}

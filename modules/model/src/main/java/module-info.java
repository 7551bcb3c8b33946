/**
 * Validated value records shared by every other module: IP addresses and CIDRs (with
 * kube-proxy's sloppy parsing), ports, protocols, IP families, service, service-port,
 * EndpointSlice and node names, and the immutable JSON tree that carries Kubernetes objects.
 *
 * <p>Requires nothing but {@code java.base}: no Kubernetes client types, no Reactor, no I/O.
 */
module io.kproxy.model {
    exports io.kproxy.model;
}

package io.kproxy.app;

import io.kproxy.backend.spi.BackendProvider;
import java.util.List;

/**
 * The installed backends that can program a kernel, which {@code run} (and its start-up cleanup
 * of the other modes, and {@code --cleanup}) may use. {@code ipvs} is installed for
 * {@code render}, {@code diff} and {@code audit} but cannot program a kernel until its kernel
 * port has an adapter to the netlink clients (docs/backends/ipvs.md, "Status"), so {@code run}
 * refuses {@code --proxy-mode ipvs} as before. Stateless.
 */
final class KernelModes {

    /** Modes whose provider renders but refuses to create a backend for a network namespace. */
    private static final List<String> RENDER_ONLY = List.of("ipvs");

    private KernelModes() {
    }

    static boolean programsKernel(BackendProvider p) {
        return !RENDER_ONLY.contains(p.mode());
    }

    /** Every installed provider that can program a kernel. */
    static List<BackendProvider> all() {
        return BackendProvider.all().stream().filter(KernelModes::programsKernel).toList();
    }
}

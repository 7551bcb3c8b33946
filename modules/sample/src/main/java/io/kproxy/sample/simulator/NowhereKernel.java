package io.kproxy.sample.simulator;

import io.kproxy.backend.ConntrackFilter;
import io.kproxy.backend.spi.ConntrackPort;
import io.kproxy.backend.spi.KernelPort;
import java.util.List;

/**
 * A kernel port that accepts every transaction and keeps nothing: a recorded replay only needs
 * the engine's decisions and sync records, not the applied texts (which {@code MemoryKernelPort}
 * would hold for the whole hour). Stateless and thread-safe.
 */
final class NowhereKernel implements KernelPort, ConntrackPort {

    @Override
    public void apply(String text) {
    }

    @Override
    public void check(String text) {
    }

    @Override
    public int delete(List<ConntrackFilter> filters) {
        return 0;
    }
}

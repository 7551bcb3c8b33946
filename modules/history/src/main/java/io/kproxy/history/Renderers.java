package io.kproxy.history;

import io.kproxy.backend.Backend;
import io.kproxy.backend.MemoryKernelPort;
import io.kproxy.backend.Plan;
import io.kproxy.backend.spi.BackendProvider;
import io.kproxy.history.HistoryException.Reason;
import io.kproxy.state.NodeState;
import java.util.Map;
import java.util.TreeMap;

/**
 * The installed backends, created once per mode with an in-memory kernel port: rendering is
 * pure, nothing is programmed. Uses the backend's own {@link Plan#rulesetText()} and
 * {@link Plan#rulesetHash()}, so that a rebuilt ruleset equals what the agent hashed by
 * construction. Not thread-safe.
 */
final class Renderers implements AutoCloseable {

    private final Map<String, Backend> backends = new TreeMap<>();

    Plan render(String mode, NodeState state) {
        return backend(mode).render(state);
    }

    private Backend backend(String mode) {
        Backend b = backends.get(mode);
        if (b == null) {
            BackendProvider p = BackendProvider.forMode(mode).orElseThrow(() -> new HistoryException(Reason.BAD_ARGUMENT, "no backend for mode "
                    + mode + " (installed: " + String.join(", ", BackendProvider.all().stream().map(BackendProvider::mode).sorted().toList()) + ")"));
            MemoryKernelPort nowhere = new MemoryKernelPort();
            b = p.create(nowhere, nowhere);
            backends.put(mode, b);
        }
        return b;
    }

    @Override
    public void close() {
        backends.values().forEach(Backend::close);
        backends.clear();
    }
}

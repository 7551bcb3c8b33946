package io.kproxy.backend.spi;

import io.kproxy.backend.Backend;
import io.kproxy.backend.KernelException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A proxy mode, found with {@link ServiceLoader} ({@code provides io.kproxy.backend.spi.BackendProvider}).
 * Implementations are stateless and thread-safe.
 */
public interface BackendProvider {

    /** The mode name as in {@code KubeProxyConfiguration.mode}: {@code nftables}, {@code iptables}, ... */
    String mode();

    /**
     * A backend programming the network namespace this process runs in, through the
     * provider's default kernel and conntrack ports.
     */
    default Backend create() {
        return create(Optional.empty());
    }

    /**
     * A backend programming the named network namespace ({@code /var/run/netns/<name>}; tests,
     * benchmarks, {@code kproxy} run for another namespace), or this process's own when empty.
     */
    Backend create(Optional<String> netns);

    /** A backend programming through the given ports (tests, benchmarks, another namespace). */
    Backend create(KernelPort kernel, ConntrackPort conntrack);

    /**
     * Removes what this mode may have left in the kernel of the named namespace (this process's
     * own when empty), and nothing else: what {@code --cleanup} does for this mode. Idempotent;
     * blocks. The default creates a backend for the namespace and calls {@link Backend#cleanup()}.
     */
    default void cleanupLeftovers(Optional<String> netns) throws KernelException {
        try (Backend b = create(netns)) {
            b.cleanup();
        }
    }

    /** Every provider visible to this module's class loader. */
    static List<BackendProvider> all() {
        return ServiceLoader.load(BackendProvider.class).stream().map(ServiceLoader.Provider::get).toList();
    }

    /** The provider of {@code mode}, when one is installed. */
    static Optional<BackendProvider> forMode(String mode) {
        return all().stream().filter(p -> p.mode().equals(mode)).findFirst();
    }

    /**
     * Starting in {@code mode} removes the other modes' leftovers (upstream's
     * {@code cmd/kube-proxy/app/server_linux.go} {@code platformCleanup}: the iptables mode deletes
     * the nftables tables, the nftables mode unlinks and deletes the iptables chains). Calls
     * {@link #cleanupLeftovers} of every installed provider but {@code mode}'s. Blocks.
     *
     * @return the modes whose cleanup failed (logged, never thrown: a leftover must not stop the
     *         proxy from starting)
     */
    static List<String> cleanupOtherModes(String mode, Optional<String> netns) {
        return cleanupOtherModes(all(), mode, netns);
    }

    /** {@link #cleanupOtherModes(String, Optional)} over the given providers. */
    static List<String> cleanupOtherModes(List<BackendProvider> providers, String mode, Optional<String> netns) {
        Logger log = LoggerFactory.getLogger(BackendProvider.class);
        List<String> failed = new ArrayList<>();
        for (BackendProvider p : providers) {
            if (p.mode().equals(mode)) {
                continue;
            }
            try {
                p.cleanupLeftovers(netns);
                log.info("cleanup of other mode done mode={} other={} netns={}", mode, p.mode(), netns.orElse("-"));
            } catch (KernelException | RuntimeException e) {
                failed.add(p.mode());
                log.warn("cleanup of other mode failed mode={} other={} netns={} reason=\"{}\"", mode, p.mode(), netns.orElse("-"),
                        e.getMessage());
            }
        }
        return List.copyOf(failed);
    }
}

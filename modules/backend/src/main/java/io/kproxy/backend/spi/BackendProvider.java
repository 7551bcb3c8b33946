package io.kproxy.backend.spi;

import io.kproxy.backend.Backend;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;

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

    /** Every provider visible to this module's class loader. */
    static List<BackendProvider> all() {
        return ServiceLoader.load(BackendProvider.class).stream().map(ServiceLoader.Provider::get).toList();
    }

    /** The provider of {@code mode}, when one is installed. */
    static Optional<BackendProvider> forMode(String mode) {
        return all().stream().filter(p -> p.mode().equals(mode)).findFirst();
    }
}

/**
 * The backend SPI (docs/design.md, "Backends"). A backend turns the node's desired state into
 * kernel rules in three steps: {@link io.kproxy.backend.Backend#render} and
 * {@link io.kproxy.backend.Backend#diff} are pure and deterministic;
 * {@link io.kproxy.backend.Backend#apply} is the only effect and goes through a
 * {@link io.kproxy.backend.spi.KernelPort}, which has an in-memory fake
 * ({@link io.kproxy.backend.MemoryKernelPort}). Backends are found with {@link java.util.ServiceLoader}
 * through {@link io.kproxy.backend.spi.BackendProvider}. Shared render helpers (upstream's
 * chain-name hashing) live in {@link io.kproxy.backend.ChainNames}.
 */
module io.kproxy.backend {
    requires transitive io.kproxy.state;
    requires org.slf4j;

    exports io.kproxy.backend;
    exports io.kproxy.backend.spi;

    uses io.kproxy.backend.spi.BackendProvider;
}

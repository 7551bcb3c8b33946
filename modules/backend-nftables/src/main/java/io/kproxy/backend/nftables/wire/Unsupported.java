package io.kproxy.backend.nftables.wire;

/**
 * A command this compiler does not express: the transaction goes through libnftables instead.
 * Never escapes the package's public entry points.
 */
final class Unsupported extends RuntimeException {

    private static final long serialVersionUID = 1L;

    Unsupported(String what) {
        super(what, null, false, false);
    }
}

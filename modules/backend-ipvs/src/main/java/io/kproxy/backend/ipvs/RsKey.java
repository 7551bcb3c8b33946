package io.kproxy.backend.ipvs;

import io.kproxy.backend.ipvs.spi.VsKey;
import io.kproxy.model.IpAddress;
import java.util.Comparator;

/** A real server of a virtual server (upstream's {@code GetUniqueRSName}). Immutable. */
record RsKey(VsKey vs, IpAddress address, int port) implements Comparable<RsKey> {

    private static final Comparator<RsKey> ORDER = Comparator.comparing(RsKey::vs).thenComparing(RsKey::address).thenComparingInt(RsKey::port);

    RsKey {
        if (vs == null || address == null) {
            throw new IllegalArgumentException("vs and address are required");
        }
    }

    @Override
    public int compareTo(RsKey o) {
        return ORDER.compare(this, o);
    }

    @Override
    public String toString() {
        return vs + "/" + VsKey.hostPort(address, port);
    }
}

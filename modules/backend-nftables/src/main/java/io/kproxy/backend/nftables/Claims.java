package io.kproxy.backend.nftables;

import io.kproxy.model.ServicePortName;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The service ports that want one element of a shared set or map, ordered by service port. The
 * first claim is the one written. Several ports of one service share their cluster IP in
 * {@code cluster-ips}; two services claiming the same external IP and port is a conflict the API
 * server does not prevent, resolved deterministically by service-port order instead of by a
 * failing transaction. Immutable.
 */
record Claims(List<Claim> claims) {

    record Claim(ServicePortName owner, NftElement element) {
    }

    Claims {
        claims = List.copyOf(claims);
        if (claims.isEmpty()) {
            throw new IllegalArgumentException("an element without claims is absent");
        }
    }

    static Claims of(ServicePortName owner, NftElement element) {
        return new Claims(List.of(new Claim(owner, element)));
    }

    /** The element written to the kernel. */
    NftElement winner() {
        return claims.getFirst().element();
    }

    ServicePortName winnerOwner() {
        return claims.getFirst().owner();
    }

    Claims plus(ServicePortName owner, NftElement element) {
        List<Claim> next = new ArrayList<>(claims.size() + 1);
        for (Claim c : claims) {
            if (!c.owner().equals(owner)) {
                next.add(c);
            }
        }
        next.add(new Claim(owner, element));
        next.sort(Comparator.comparing(Claim::owner));
        return new Claims(next);
    }

    /** Without {@code owner}'s claim; null when none is left. */
    Claims minus(ServicePortName owner) {
        List<Claim> next = claims.stream().filter(c -> !c.owner().equals(owner)).toList();
        return next.isEmpty() ? null : next.size() == claims.size() ? this : new Claims(next);
    }
}

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
 *
 * <p>The first claim is held inline and the others in {@code rest}: nearly every element has one
 * claim, and a plan holds one of these per shared element (70,000 at 10,000 Services).
 *
 * @param owner   the first claim's service port (the winner)
 * @param element the first claim's element (the one written)
 * @param rest    the other claims, in service-port order (usually none)
 */
record Claims(ServicePortName owner, NftElement element, List<Claim> rest) {

    record Claim(ServicePortName owner, NftElement element) {
    }

    Claims {
        if (owner == null || element == null) {
            throw new IllegalArgumentException("an element without claims is absent");
        }
        rest = List.copyOf(rest);
    }

    static Claims of(ServicePortName owner, NftElement element) {
        return new Claims(owner, element, List.of());
    }

    /** The element written to the kernel. */
    NftElement winner() {
        return element;
    }

    ServicePortName winnerOwner() {
        return owner;
    }

    Claims plus(ServicePortName owner, NftElement element) {
        List<Claim> next = new ArrayList<>(rest.size() + 2);
        for (Claim c : all()) {
            if (!c.owner().equals(owner)) {
                next.add(c);
            }
        }
        next.add(new Claim(owner, element));
        next.sort(Comparator.comparing(Claim::owner));
        return from(next);
    }

    /** Without {@code owner}'s claim; null when none is left. */
    Claims minus(ServicePortName owner) {
        if (!this.owner.equals(owner) && rest.stream().noneMatch(c -> c.owner().equals(owner))) {
            return this;
        }
        return from(all().stream().filter(c -> !c.owner().equals(owner)).toList());
    }

    private List<Claim> all() {
        List<Claim> all = new ArrayList<>(rest.size() + 1);
        all.add(new Claim(owner, element));
        all.addAll(rest);
        return all;
    }

    private static Claims from(List<Claim> sorted) {
        return sorted.isEmpty() ? null
                : new Claims(sorted.getFirst().owner(), sorted.getFirst().element(), sorted.subList(1, sorted.size()));
    }
}

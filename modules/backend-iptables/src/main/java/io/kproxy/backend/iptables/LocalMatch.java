package io.kproxy.backend.iptables;

import io.kproxy.model.Cidr;
import io.kproxy.state.LocalDetector;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The iptables arguments of upstream's {@code LocalTrafficDetector}
 * ({@code pkg/proxy/util/localdetector.go}: {@code IfLocal} / {@code IfNotLocal}) for one family,
 * or empty when no detector is in use. With several CIDRs of the family only the first is used,
 * as upstream's {@code getLocalDetectors} does ({@code cmd/kube-proxy/app/server.go}): an iptables
 * rule cannot negate a list. Interface names are checked before they reach a rule; a name that
 * is not a Linux interface name disables the detector.
 */
record LocalMatch(String ifLocal, String ifNotLocal) {

    private static final Pattern IFNAME = Pattern.compile("[A-Za-z0-9_.:@-]{1,15}");

    static Optional<LocalMatch> of(Fam f, LocalDetector detector) {
        return switch (detector) {
            case LocalDetector.None none -> Optional.empty();
            case LocalDetector.Cidrs c -> c.cidrs().stream().filter(x -> x.family() == f.family()).findFirst().map(Cidr::toString)
                    .map(cidr -> new LocalMatch("-s " + cidr, "! -s " + cidr));
            case LocalDetector.BridgeInterface b -> IFNAME.matcher(b.name()).matches()
                    ? Optional.of(new LocalMatch("-i " + b.name(), "! -i " + b.name()))
                    : Optional.empty();
            case LocalDetector.InterfacePrefix p -> IFNAME.matcher(p.prefix()).matches()
                    ? Optional.of(new LocalMatch("-i " + p.prefix() + "+", "! -i " + p.prefix() + "+"))
                    : Optional.empty();
        };
    }
}

package io.kproxy.backend.nftables;

import io.kproxy.model.Cidr;
import io.kproxy.state.LocalDetector;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The nft match of upstream's {@code LocalTrafficDetector} ({@code pkg/proxy/util/localdetector.go}:
 * {@code IfLocalNFT} / {@code IfNotLocalNFT}) for one family, or empty when no detector is in use.
 * Interface names are checked before they reach a rule (no rule injection through configuration);
 * a name that is not a Linux interface name disables the detector.
 */
record LocalTraffic(String ifLocal, String ifNotLocal) {

    private static final Pattern IFNAME = Pattern.compile("[A-Za-z0-9_.:@-]{1,15}");

    static Optional<LocalTraffic> of(NftFamily f, LocalDetector detector) {
        return switch (detector) {
            case LocalDetector.None none -> Optional.empty();
            case LocalDetector.Cidrs c -> {
                var ofFamily = c.cidrs().stream().filter(x -> x.family() == f.family()).map(Cidr::toString).toList();
                if (ofFamily.isEmpty()) {
                    yield Optional.empty();
                }
                String set = ofFamily.size() == 1 ? ofFamily.getFirst() : ofFamily.stream().collect(Collectors.joining(", ", "{ ", " }"));
                yield Optional.of(new LocalTraffic(f.ipX() + " saddr " + set, f.ipX() + " saddr != " + set));
            }
            case LocalDetector.BridgeInterface b -> IFNAME.matcher(b.name()).matches()
                    ? Optional.of(new LocalTraffic("iifname \"" + b.name() + "\"", "iifname != \"" + b.name() + "\""))
                    : Optional.empty();
            case LocalDetector.InterfacePrefix p -> IFNAME.matcher(p.prefix()).matches()
                    ? Optional.of(new LocalTraffic("iifname \"" + p.prefix() + "*\"", "iifname != \"" + p.prefix() + "*\""))
                    : Optional.empty();
        };
    }
}

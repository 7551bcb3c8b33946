package io.kproxy.backend.ipvs;

import io.kproxy.testkit.uml.UmlOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** The User-Mode Linux guest of the ipvs backend's tests: the ipvs-mode modules and {@code xt_physdev}. */
final class IpvsUmlOptions {

    private IpvsUmlOptions() {
    }

    /** ipvs mode's KUBE-SERVICES accepts bridged traffic with {@code -m physdev} (upstream's {@code writeIptablesRules}). */
    static UmlOptions of(Duration timeout) {
        UmlOptions ipvs = UmlOptions.ipvs(timeout);
        List<String> modules = new ArrayList<>(ipvs.modules());
        modules.add("xt_physdev");
        return new UmlOptions(ipvs.memoryMegabytes(), ipvs.timeout(), modules, ipvs.env());
    }
}

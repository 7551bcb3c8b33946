package io.kproxy.backend.testkit;

import static io.kproxy.backend.testkit.States.ep;
import static io.kproxy.backend.testkit.States.port;
import static io.kproxy.backend.testkit.States.terminating;

import io.kproxy.model.IpFamily;
import io.kproxy.model.Protocol;
import io.kproxy.state.ServicePortState;
import io.kproxy.testkit.netns.Addr;
import java.util.ArrayList;
import java.util.List;

/**
 * The services of the packet tests, the same in both families (addresses from {@link Addr}) and
 * for both modes ({@code lblocal}'s health-check node port matters to iptables only).
 */
public final class PacketWorld {

    private PacketWorld() {
    }

    public static List<ServicePortState> services() {
        List<ServicePortState> out = new ArrayList<>();
        for (IpFamily f : IpFamily.values()) {
            Addr a = new Addr(f);
            out.add(port("ns1", "web", "http", a.cip(10), 80).with(p -> {
                p.nodePort = 30010;
                p.externalIPs.add(a.ext(10));
                p.endpoints.add(ep(a.pod(1), 8080, true));
                p.endpoints.add(ep(a.rpod(), 8080, false));
                return p;
            }).build());
            out.add(port("ns1", "web", "dns", a.cip(10), 53).with(p -> {
                p.protocol = Protocol.UDP;
                p.nodePort = 30053;
                p.endpoints.add(ep(a.pod(1), 5353, true));
                return p;
            }).build());
            out.add(port("ns1", "hairpin", "", a.cip(11), 80).with(p -> {
                p.endpoints.add(ep(a.pod(1), 8080, true));
                return p;
            }).build());
            out.add(port("ns1", "empty", "", a.cip(12), 80).with(p -> {
                p.nodePort = 30012;
                p.externalIPs.add(a.ext(12));
                p.lbIPs.add(a.lb(12));
                return p;
            }).build());
            out.add(port("ns1", "lblocal", "", a.cip(13), 80).with(p -> {
                p.nodePort = 30013;
                p.lbIPs.add(a.lb(13));
                p.etpLocal = true;
                p.healthCheckNodePort = 32013;
                p.endpoints.add(ep(a.pod(1), 8080, true));
                p.endpoints.add(ep(a.rpod(), 8080, false));
                return p;
            }).build());
            out.add(port("ns1", "lbremote", "", a.cip(14), 80).with(p -> {
                p.nodePort = 30014;
                p.lbIPs.add(a.lb(14));
                p.etpLocal = true;
                p.endpoints.add(ep(a.rpod(), 8080, false));
                return p;
            }).build());
            out.add(port("ns1", "itplocal", "", a.cip(15), 80).with(p -> {
                p.itpLocal = true;
                p.endpoints.add(ep(a.pod(1), 8080, true));
                p.endpoints.add(ep(a.rpod(), 8080, false));
                return p;
            }).build());
            out.add(port("ns1", "itpremote", "", a.cip(16), 80).with(p -> {
                p.itpLocal = true;
                p.endpoints.add(ep(a.rpod(), 8080, false));
                return p;
            }).build());
            out.add(port("ns1", "fw", "", a.cip(17), 80).with(p -> {
                p.nodePort = 30017;
                p.lbIPs.add(a.lb(17));
                p.sourceRanges.add(a.allowedRange());
                p.endpoints.add(ep(a.pod(1), 8080, true));
                return p;
            }).build());
            out.add(port("ns1", "affinity", "", a.cip(18), 80).with(p -> {
                p.affinity = 60;
                p.endpoints.add(ep(a.pod(1), 8080, true));
                p.endpoints.add(ep(a.pod(2), 8080, true));
                p.endpoints.add(ep(a.rpod(), 8080, false));
                return p;
            }).build());
            out.add(port("ns1", "terminating", "", a.cip(19), 80).with(p -> {
                p.nodePort = 30019;
                p.lbIPs.add(a.lb(19));
                p.etpLocal = true;
                p.endpoints.add(terminating(a.rpod(), 8080, false, true));
                return p;
            }).build());
        }
        return out;
    }
}

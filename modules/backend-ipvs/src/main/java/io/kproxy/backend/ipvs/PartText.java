package io.kproxy.backend.ipvs;

import io.kproxy.backend.ipvs.spi.RealServer;
import io.kproxy.backend.ipvs.spi.VirtualServer;
import io.kproxy.backend.ipvs.spi.VsKey;
import io.kproxy.model.IpAddress;
import io.kproxy.model.IpFamily;
import io.kproxy.model.ServicePortName;
import java.util.List;
import java.util.Optional;

/**
 * The text of one service port's block in the ruleset: opened by {@code # ns/name:port proto}
 * (so that {@code kproxy diff} and {@code audit} attribute every line to the Service), then its
 * virtual and real servers as {@code ipvsadm-save -n} prints them, its ipset members as
 * {@code ipset save} prints them, and its addresses on {@code kube-ipvs0} as {@code ip address add}
 * commands; a skipped port shows the reason instead. Pure.
 */
final class PartText {

    static final String DUMMY = "kube-ipvs0";

    private PartText() {
    }

    static String block(ServicePortName name, IpFamily family, List<VsEntry> services, List<SetEntry> entries, Optional<String> skipped) {
        StringBuilder b = new StringBuilder("# ").append(name).append(' ').append(name.protocol().lowerName()).append('\n');
        skipped.ifPresent(r -> b.append("# skipped: ").append(r).append('\n'));
        for (VsEntry e : services) {
            b.append(addService(e.vs())).append('\n');
            for (RealServer rs : e.reals()) {
                b.append(addReal(e.vs().key(), rs)).append('\n');
            }
        }
        for (SetEntry e : entries) {
            b.append("add ").append(e.set().name(family)).append(' ').append(e.entry()).append('\n');
        }
        for (VsEntry e : services) {
            if (e.bind()) {
                b.append(addressLine("add", e.vs().key().address())).append('\n');
            }
        }
        return b.toString();
    }

    /** {@code ipvsadm-save -n}'s line for a virtual server: {@code -A -t 10.0.0.1:80 -s rr [-b mh-port] [-p 10800]}. */
    static String addService(VirtualServer vs) {
        return "-A " + serviceOptions(vs);
    }

    static String serviceOptions(VirtualServer vs) {
        StringBuilder b = new StringBuilder(vs.key().ipvsadm()).append(" -s ").append(vs.scheduler());
        if ((vs.flags() & VirtualServer.SOURCE_HASH) != 0) {
            b.append(" -b ").append(vs.scheduler()).append("-port");
        }
        if ((vs.flags() & VirtualServer.PERSISTENT) != 0) {
            b.append(" -p ").append(vs.timeoutSeconds());
        }
        return b.toString();
    }

    /** {@code ipvsadm-save -n}'s line for a real server: {@code -a -t 10.0.0.1:80 -r 10.1.0.1:8080 -m -w 1}. */
    static String addReal(VsKey vs, RealServer rs) {
        return "-a " + realOptions(vs, rs);
    }

    static String realOptions(VsKey vs, RealServer rs) {
        return vs.ipvsadm() + " -r " + rs.hostPort() + " " + rs.forwarding().ipvsadm() + " -w " + rs.weight();
    }

    /** {@code ip address add|del 10.0.0.1/32 dev kube-ipvs0} ({@code /128} for IPv6). */
    static String addressLine(String verb, IpAddress ip) {
        return "ip address " + verb + " " + ip + (ip.isIpv6() ? "/128" : "/32") + " dev " + DUMMY;
    }
}

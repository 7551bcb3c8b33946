package io.kproxy.backend.ipvs;

import io.kproxy.backend.ipvs.spi.RealServer;
import io.kproxy.backend.ipvs.spi.SetSpec;
import io.kproxy.backend.ipvs.spi.VirtualServer;
import io.kproxy.backend.ipvs.spi.VsKey;
import io.kproxy.model.IpAddress;
import io.kproxy.model.IpFamily;

/**
 * One kernel operation of an ipvs transaction. Its {@link #text()} is the command a person would
 * type for it ({@code ipvsadm}, {@code ipset}, {@code ip}, {@code sysctl}, {@code iptables-restore});
 * a transaction's text is its operations' texts in order, and {@link OpParser} reads them back, so
 * that what {@code apply} does is exactly what the text says. Immutable.
 */
sealed interface Op {

    String text();

    /** Create {@code kube-ipvs0} unless it exists. */
    record EnsureLink() implements Op {
        public String text() {
            return "ip link add " + PartText.DUMMY + " type dummy";
        }
    }

    record Sysctl(String name, int value) implements Op {
        public String text() {
            return "sysctl -w " + name.replace('/', '.') + "=" + value;
        }
    }

    /** {@code ipvsadm --set tcp tcpfin udp} in seconds; 0 keeps the kernel's value. */
    record Timeouts(long tcp, long tcpFin, long udp) implements Op {
        public String text() {
            return "ipvsadm --set " + tcp + " " + tcpFin + " " + udp;
        }
    }

    record CreateSet(SetSpec set) implements Op {
        public String text() {
            return "ipset " + set.createLine() + " -exist";
        }
    }

    record AddVs(VirtualServer vs) implements Op {
        public String text() {
            return "ipvsadm -A " + PartText.serviceOptions(vs);
        }
    }

    record EditVs(VirtualServer vs) implements Op {
        public String text() {
            return "ipvsadm -E " + PartText.serviceOptions(vs);
        }
    }

    record DelVs(VsKey vs) implements Op {
        public String text() {
            return "ipvsadm -D " + vs.ipvsadm();
        }
    }

    record AddRs(VsKey vs, RealServer rs) implements Op {
        public String text() {
            return "ipvsadm -a " + PartText.realOptions(vs, rs);
        }
    }

    /** Change a destination's weight: back to 1 when a drained endpoint returns, or after a takeover. */
    record EditRs(VsKey vs, RealServer rs) implements Op {
        public String text() {
            return "ipvsadm -e " + PartText.realOptions(vs, rs);
        }
    }

    /**
     * Upstream's {@code GracefulDeleteRS} for a TCP destination: deleted at once when it has no
     * connections, else weight 0 and deleted by a later {@link Reap} once idle.
     */
    record Drain(VsKey vs, RealServer rs) implements Op {
        public Drain {
            rs = rs.withWeight(0);
        }

        public String text() {
            return "ipvsadm -e " + PartText.realOptions(vs, rs) + " # graceful termination";
        }
    }

    /** Delete a drained destination if it has no connections left, else keep it drained. */
    record Reap(VsKey vs, IpAddress address, int port) implements Op {
        public String text() {
            return "ipvsadm -d " + vs.ipvsadm() + " -r " + VsKey.hostPort(address, port) + " # once idle";
        }
    }

    /** Delete a destination now (UDP and SCTP: no graceful termination, as upstream). */
    record DelRs(VsKey vs, IpAddress address, int port) implements Op {
        public String text() {
            return "ipvsadm -d " + vs.ipvsadm() + " -r " + VsKey.hostPort(address, port);
        }
    }

    record AddEntry(String set, String entry) implements Op {
        public String text() {
            return "ipset add " + set + " " + entry;
        }
    }

    record DelEntry(String set, String entry) implements Op {
        public String text() {
            return "ipset del " + set + " " + entry;
        }
    }

    record AddAddress(IpAddress address) implements Op {
        public String text() {
            return PartText.addressLine("add", address);
        }
    }

    record DelAddress(IpAddress address) implements Op {
        public String text() {
            return PartText.addressLine("del", address);
        }
    }

    /** Ensure a jump first in a built-in chain (upstream's {@code EnsureRule(Prepend, ...)}). */
    record Jump(IpFamily family, IptablesRules.Jump jump) implements Op {
        public String text() {
            return (family == IpFamily.IPV4 ? "iptables" : "ip6tables") + " -t " + jump.table() + " " + jump.line();
        }
    }

    /** Rewrite the family's helper chains: {@code iptables-restore --noflush} of {@code rules}. */
    record Restore(IpFamily family, String rules) implements Op {
        public String text() {
            return (family == IpFamily.IPV4 ? "iptables" : "ip6tables") + "-restore --noflush <<EOF\n" + rules + "EOF";
        }
    }
}

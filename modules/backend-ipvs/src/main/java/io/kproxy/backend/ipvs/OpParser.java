package io.kproxy.backend.ipvs;

import io.kproxy.backend.ipvs.spi.Forwarding;
import io.kproxy.backend.ipvs.spi.RealServer;
import io.kproxy.backend.ipvs.spi.SetSpec;
import io.kproxy.backend.ipvs.spi.VirtualServer;
import io.kproxy.backend.ipvs.spi.VsKey;
import io.kproxy.model.IpAddress;
import io.kproxy.model.IpFamily;
import io.kproxy.model.Protocol;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads a transaction's text back into its {@link Op}s: the inverse of {@link Op#text()}, for the
 * commands kproxy writes and nothing else. Pure; a line it does not know is an
 * {@link IllegalArgumentException} naming the line.
 */
final class OpParser {

    private static final String GRACEFUL = " # graceful termination";
    private static final String ONCE_IDLE = " # once idle";

    private OpParser() {
    }

    static List<Op> parse(String text) {
        List<Op> ops = new ArrayList<>();
        String[] lines = text.split("\n");
        for (int i = 0; i < lines.length; i++) {
            String l = lines[i];
            if (l.isEmpty()) {
                continue;
            }
            if (l.endsWith("-restore --noflush <<EOF")) {
                StringBuilder rules = new StringBuilder();
                int j = i + 1;
                while (j < lines.length && !lines[j].equals("EOF")) {
                    rules.append(lines[j]).append('\n');
                    j++;
                }
                if (j == lines.length) {
                    throw new IllegalArgumentException("restore without EOF at line " + (i + 1));
                }
                ops.add(new Op.Restore(l.startsWith("ip6") ? IpFamily.IPV6 : IpFamily.IPV4, rules.toString()));
                i = j;
                continue;
            }
            ops.add(line(l));
        }
        return ops;
    }

    private static Op line(String l) {
        try {
            return parseLine(l);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("not an ipvs operation: " + l, e);
        }
    }

    private static Op parseLine(String l) {
        if (l.equals(new Op.EnsureLink().text())) {
            return new Op.EnsureLink();
        }
        String[] w = l.split(" ");
        switch (w[0]) {
            case "sysctl" -> {
                String[] kv = w[2].split("=");
                return new Op.Sysctl(kv[0].replace('.', '/'), Integer.parseInt(kv[1]));
            }
            case "ipset" -> {
                return switch (w[1]) {
                    case "create" -> new Op.CreateSet(set(w[2]));
                    case "add" -> new Op.AddEntry(w[2], w[3]);
                    case "del" -> new Op.DelEntry(w[2], w[3]);
                    default -> throw new IllegalArgumentException(w[1]);
                };
            }
            case "ip" -> {
                IpAddress a = IpAddress.parse(w[3].substring(0, w[3].indexOf('/')));
                return w[2].equals("add") ? new Op.AddAddress(a) : new Op.DelAddress(a);
            }
            case "iptables", "ip6tables" -> {
                IpFamily f = w[0].equals("iptables") ? IpFamily.IPV4 : IpFamily.IPV6;
                String line = l.substring(l.indexOf(" -I ") + 1);
                return IptablesRules.JUMPS.stream().filter(j -> j.table().equals(w[2]) && j.line().equals(line)).findFirst()
                        .map(j -> (Op) new Op.Jump(f, j)).orElseThrow();
            }
            case "ipvsadm" -> {
                return ipvsadm(l, w);
            }
            default -> throw new IllegalArgumentException(w[0]);
        }
    }

    private static Op ipvsadm(String l, String[] w) {
        if (w[1].equals("--set")) {
            return new Op.Timeouts(Long.parseLong(w[2]), Long.parseLong(w[3]), Long.parseLong(w[4]));
        }
        VsKey vs = service(w[2], w[3]);
        return switch (w[1]) {
            case "-A", "-E" -> {
                String sched = w[5];
                int flags = 0;
                int timeout = 0;
                for (int i = 6; i < w.length; i += 2) {
                    if (w[i].equals("-b")) {
                        flags |= VirtualServer.SOURCE_HASH;
                    } else if (w[i].equals("-p")) {
                        flags |= VirtualServer.PERSISTENT;
                        timeout = Integer.parseInt(w[i + 1]);
                    }
                }
                VirtualServer v = new VirtualServer(vs, sched, flags, timeout);
                yield w[1].equals("-A") ? new Op.AddVs(v) : new Op.EditVs(v);
            }
            case "-D" -> new Op.DelVs(vs);
            case "-a", "-e" -> {
                VsKey hp = service(w[2], w[5]);
                RealServer rs = new RealServer(hp.address(), hp.port(), Integer.parseInt(w[8]), forwarding(w[6]));
                if (l.endsWith(GRACEFUL)) {
                    yield new Op.Drain(vs, rs);
                }
                yield w[1].equals("-a") ? new Op.AddRs(vs, rs) : new Op.EditRs(vs, rs);
            }
            case "-d" -> {
                VsKey hp = service(w[2], w[5]);
                yield l.endsWith(ONCE_IDLE) ? new Op.Reap(vs, hp.address(), hp.port()) : new Op.DelRs(vs, hp.address(), hp.port());
            }
            default -> throw new IllegalArgumentException(w[1]);
        };
    }

    private static VsKey service(String flag, String hostPort) {
        Protocol p = switch (flag) {
            case "-t" -> Protocol.TCP;
            case "-u" -> Protocol.UDP;
            case "--sctp-service" -> Protocol.SCTP;
            default -> throw new IllegalArgumentException(flag);
        };
        int colon = hostPort.lastIndexOf(':');
        String host = hostPort.substring(0, colon);
        if (host.startsWith("[")) {
            host = host.substring(1, host.length() - 1);
        }
        return new VsKey(p, IpAddress.parse(host), Integer.parseInt(hostPort.substring(colon + 1)));
    }

    private static Forwarding forwarding(String flag) {
        return Arrays.stream(Forwarding.values()).filter(f -> f.ipvsadm().equals(flag)).findFirst().orElseThrow();
    }

    private static SetSpec set(String name) {
        for (IpFamily f : IpFamily.values()) {
            for (IpSets s : IpSets.values()) {
                if (s.name(f).equals(name)) {
                    return s.spec(f);
                }
            }
        }
        throw new IllegalArgumentException("not one of upstream's sets: " + name);
    }
}

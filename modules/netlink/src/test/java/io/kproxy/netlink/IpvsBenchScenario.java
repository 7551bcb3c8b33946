package io.kproxy.netlink;

import io.kproxy.testkit.NetNs;
import io.kproxy.testkit.uml.UmlScenario;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Runs inside User-Mode Linux ({@link IpvsBenchUmlMeasure}): loads N virtual services × D real
 * servers into a fresh network namespace through {@link IpvsClient} and, in another fresh
 * namespace, the same table through {@code ipvsadm -R} (process start included), three times
 * each, then times single real-server weight changes on the loaded table. Prints
 * {@code BENCH <name> <value>} lines; docs/benchmarks.md quotes them.
 */
public final class IpvsBenchScenario {

    private static final int RUNS = 3;

    private IpvsBenchScenario() {
    }

    public static void main(String[] args) {
        UmlScenario.exit(() -> run(Integer.parseInt(args[0]), Integer.parseInt(args[1])));
    }

    static InetAddress v4(int base, int index) throws UnknownHostException {
        int a = base + index;
        return InetAddress.getByAddress(new byte[] {(byte) (a >>> 24), (byte) (a >>> 16), (byte) (a >>> 8), (byte) a});
    }

    private static void run(int n, int d) throws Exception {
        List<IpvsOp> ops = new ArrayList<>(n * (d + 1));
        StringBuilder restore = new StringBuilder();
        int vipBase = 10 << 24 | 96 << 16;
        int podBase = 10 << 24 | 128 << 16;
        for (int i = 0; i < n; i++) {
            IpvsService s = IpvsService.of(v4(vipBase, i + 1), IpvsProtocol.TCP, 80, "rr");
            ops.add(new IpvsOp.AddService(s));
            String vs = s.address().getHostAddress() + ":80";
            restore.append("-A -t ").append(vs).append(" -s rr\n");
            for (int j = 0; j < d; j++) {
                IpvsDestination dst = IpvsDestination.masquerade(v4(podBase, i * d + j + 1), 8080, 1);
                ops.add(new IpvsOp.AddDestination(s, dst));
                restore.append("-a -t ").append(vs).append(" -r ").append(dst.address().getHostAddress()).append(":8080 -m -w 1\n");
            }
        }
        Path input = Files.writeString(Files.createTempFile("ipvsadm-restore", ".txt"), restore);
        long[] client = new long[RUNS];
        long[] tool = new long[RUNS];
        for (int r = 0; r < RUNS; r++) {
            try (NetNs ns = NetNs.create("bench"); IpvsClient ipvs = IpvsClient.open(Optional.of(ns.name()))) {
                long t0 = System.nanoTime();
                ipvs.apply(ops);
                client[r] = System.nanoTime() - t0;
                check(ipvs.services().size() == n, "client loaded " + ipvs.services().size() + " services");
                if (r == RUNS - 1) {
                    changes(ipvs, ops, d);
                }
            }
            try (NetNs ns = NetNs.create("bench"); IpvsClient ipvs = IpvsClient.open(Optional.of(ns.name()))) {
                long t0 = System.nanoTime();
                ipvsadmRestore(ns, input);
                tool[r] = System.nanoTime() - t0;
                check(ipvs.services().size() == n, "ipvsadm loaded " + ipvs.services().size() + " services");
                check(ipvs.destinations(((IpvsOp.AddService) ops.get(0)).service()).size() == d, "ipvsadm real servers");
            }
            System.out.printf("run %d: IpvsClient %d ms, ipvsadm -R %d ms%n", r + 1, client[r] / 1_000_000, tool[r] / 1_000_000);
        }
        System.out.println("BENCH services " + n + " x " + d);
        System.out.println("BENCH ipvsclient-full-load-ms " + median(client) / 1_000_000);
        System.out.println("BENCH ipvsadm-restore-ms " + median(tool) / 1_000_000);
        System.out.println("BENCH vmhwm " + Files.readAllLines(Path.of("/proc/self/status")).stream().filter(l -> l.startsWith("VmHWM")).findFirst().orElse("?"));
    }

    /** One real server's weight set to 0 and back, 200 times, on the loaded table: p50 and p99 of one {@code apply}. */
    private static void changes(IpvsClient ipvs, List<IpvsOp> ops, int d) throws NetlinkRequestException {
        long[] t = new long[200];
        for (int k = 0; k < t.length; k++) {
            IpvsOp.AddDestination a = (IpvsOp.AddDestination) ops.get((k * 37 % (ops.size() / (d + 1))) * (d + 1) + 1);
            long t0 = System.nanoTime();
            ipvs.apply(List.of(new IpvsOp.UpdateDestination(a.service(), a.destination().withWeight(k % 2 == 0 ? 0 : 1))));
            t[k] = System.nanoTime() - t0;
        }
        Arrays.sort(t);
        System.out.printf("BENCH one-real-server-change-us p50=%d p99=%d%n", t[t.length / 2] / 1000, t[t.length * 99 / 100] / 1000);
    }

    private static void ipvsadmRestore(NetNs ns, Path input) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(ns.prefix());
        cmd.addAll(List.of("ipvsadm", "-R"));
        Process p = new ProcessBuilder(cmd).redirectInput(input.toFile()).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (!p.waitFor(600, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("ipvsadm -R took more than 600 s");
        }
        check(p.exitValue() == 0, "ipvsadm -R exited " + p.exitValue());
    }

    private static long median(long[] v) {
        long[] c = v.clone();
        Arrays.sort(c);
        return c[c.length / 2];
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            throw new AssertionError(what);
        }
    }
}

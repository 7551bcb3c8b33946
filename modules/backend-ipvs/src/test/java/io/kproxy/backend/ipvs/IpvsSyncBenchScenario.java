package io.kproxy.backend.ipvs;

import static io.kproxy.backend.testkit.States.ep;
import static io.kproxy.backend.testkit.States.port;
import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.backend.Backend;
import io.kproxy.backend.Plan;
import io.kproxy.backend.SyncOptions;
import io.kproxy.backend.Transaction;
import io.kproxy.model.IpFamily;
import io.kproxy.state.NodeState;
import io.kproxy.state.ServicePortState;
import io.kproxy.state.StateDelta;
import io.kproxy.testkit.NetNs;
import io.kproxy.testkit.uml.UmlScenario;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Runs inside User-Mode Linux ({@link IpvsSyncBenchUmlMeasure}, opt-in): the ipvs backend's full sync
 * of N ClusterIP Services × 5 endpoints into an empty namespace through the netlink adapter, then
 * 200 one-endpoint changes (render, diff and apply each), the JVM's RSS; and, in another empty
 * namespace, the same state loaded by the tools from what {@code kproxy render --mode ipvs
 * --family ipv4} prints ({@code ip -batch}, {@code ipvsadm -R}, {@code ipset restore},
 * {@code iptables-legacy-restore --noflush}). Prints {@code BENCH} lines.
 */
public final class IpvsSyncBenchScenario {

    private static final int CHANGES = 200;

    private IpvsSyncBenchScenario() {
    }

    public static void main(String[] args) {
        UmlScenario.exit(() -> run(Integer.parseInt(args[0]), Integer.parseInt(args[1])));
    }

    /** Service i: cluster IP 172.30.x.y, port 80, endpoints 10.(i/250).(i%250).1..n:8080 (one marked local). */
    static ServicePortState service(int i, int endpoints, int generation) {
        String cip = "172.30." + (1 + i / 250) + "." + (1 + i % 250);
        return port("bench", "svc-" + i, "", cip, 80).with(p -> {
            for (int e = 1; e <= endpoints; e++) {
                int last = e == endpoints ? e + generation : e;
                p.endpoints.add(ep("10." + (i / 250) + "." + (i % 250) + "." + last, 8080, e == 1));
            }
            return p;
        }).build();
    }

    static void run(int n, int endpoints) throws Exception {
        List<ServicePortState> services = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            services.add(service(i, endpoints, 0));
        }
        NodeState state = IpvsStates.node().state(services);
        try (NetNs node = NetNs.create("bench"); NetNs tools = NetNs.create("tools")) {
            Backend backend = new IpvsProvider().create(Optional.of(node.name()));
            long t0 = System.nanoTime();
            Plan plan = backend.render(state);
            long rendered = System.nanoTime();
            Transaction full = backend.diffFromKernel(plan, SyncOptions.fullAt(Instant.now()));
            long diffed = System.nanoTime();
            backend.apply(full);
            long applied = System.nanoTime();
            System.out.printf("BENCH full-sync services=%d endpoints=%d operations=%d render_ms=%d diff_ms=%d apply_ms=%d total_ms=%d%n", n, endpoints,
                    full.operations(), ms(rendered - t0), ms(diffed - rendered), ms(applied - diffed), ms(applied - t0));
            System.out.println("BENCH rss-after-full-sync " + status("VmRSS"));
            assertThat(node.exec("ipvsadm", "-Ln").lines().filter(l -> l.startsWith("TCP")).count()).isEqualTo(n);

            long[] change = new long[CHANGES];
            long[] probe = new long[CHANGES];
            long[] render = new long[CHANGES];
            for (int c = 0; c < CHANGES; c++) {
                int i = (int) ((c * 7919L) % n);
                List<ServicePortState> next = new ArrayList<>(services);
                next.set(i, service(i, endpoints, c + 1));
                NodeState after = IpvsStates.node().state(next);
                long s = System.nanoTime();
                // As the engine's partial sync: the cheap probe, the node's local addresses (unchanged here: not recorded
                // again), then render, diff, apply.
                assertThat(backend.rulesIntact()).isTrue();
                probe[c] = System.nanoTime() - s;
                long r = System.nanoTime();
                assertThat(backend.localAddresses()).isPresent();
                Plan p = backend.renderIncremental(plan, after, StateDelta.between(state, after));
                render[c] = System.nanoTime() - r;
                Transaction tx = backend.diff(Optional.of(plan), p, SyncOptions.at(Instant.now()));
                backend.apply(tx);
                change[c] = System.nanoTime() - s;
                assertThat(tx.operations()).as(tx.text()).isBetween(1, 3);
                services = next;
                state = after;
                plan = p;
            }
            Arrays.sort(change);
            System.out.printf("BENCH one-endpoint-change n=%d p50_ms=%.2f p99_ms=%.2f max_ms=%.2f%n", CHANGES, change[CHANGES / 2] / 1e6,
                    change[CHANGES * 99 / 100] / 1e6, change[CHANGES - 1] / 1e6);
            Arrays.sort(probe);
            Arrays.sort(render);
            System.out.printf("BENCH of-which probe p50_ms=%.2f p99_ms=%.2f address-read-and-render p50_ms=%.2f p99_ms=%.2f%n",
                    probe[CHANGES / 2] / 1e6, probe[CHANGES * 99 / 100] / 1e6, render[CHANGES / 2] / 1e6, render[CHANGES * 99 / 100] / 1e6);
            System.out.println("BENCH rss-end " + status("VmRSS") + " peak " + status("VmHWM"));
            backend.close();

            tools(tools, plan.loadableText(IpFamily.IPV4), n);
        }
    }

    /** The render command's text, loaded section by section by the tools into an empty namespace. */
    private static void tools(NetNs ns, String text, int n) throws Exception {
        StringBuilder ip = new StringBuilder();
        StringBuilder ipvsadm = new StringBuilder();
        StringBuilder ipset = new StringBuilder();
        StringBuilder iptables = new StringBuilder();
        StringBuilder into = null;
        for (String line : text.split("\n")) {
            if (line.equals("# ip")) {
                into = ip;
            } else if (line.equals("# ipvsadm-restore")) {
                into = ipvsadm;
            } else if (line.equals("# ipset restore")) {
                into = ipset;
            } else if (line.startsWith("# iptables-restore")) {
                into = iptables;
            } else if (line.startsWith("# ")) {
                into = null;
            } else if (into != null) {
                into.append(into == ip ? line.substring("ip ".length()) : line).append('\n');
            }
        }
        long[] t = new long[5];
        t[0] = System.nanoTime();
        ns.execWithInput(ip.toString(), "ip", "-batch", "-");
        ns.exec("ip", "link", "set", "kube-ipvs0", "up");
        t[1] = System.nanoTime();
        ns.execWithInput(ipvsadm.toString(), "ipvsadm", "-R");
        t[2] = System.nanoTime();
        ns.execWithInput(ipset.toString(), "ipset", "restore");
        t[3] = System.nanoTime();
        ns.execWithInput(iptables.toString(), "iptables-legacy-restore", "--noflush", "-w");
        t[4] = System.nanoTime();
        assertThat(ns.exec("ipvsadm", "-Ln").lines().filter(l -> l.startsWith("TCP")).count()).isEqualTo(n);
        System.out.printf("BENCH tools ip_batch_ms=%d ipvsadm_R_ms=%d ipset_restore_ms=%d iptables_restore_ms=%d total_ms=%d%n", ms(t[1] - t[0]),
                ms(t[2] - t[1]), ms(t[3] - t[2]), ms(t[4] - t[3]), ms(t[4] - t[0]));
    }

    private static long ms(long nanos) {
        return nanos / 1_000_000;
    }

    private static String status(String key) throws Exception {
        return Files.readAllLines(Path.of("/proc/self/status")).stream().filter(l -> l.startsWith(key)).findFirst().orElse(key + " ?")
                .replaceAll("\\s+", " ");
    }
}

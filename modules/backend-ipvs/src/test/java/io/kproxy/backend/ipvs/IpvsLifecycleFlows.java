package io.kproxy.backend.ipvs;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.backend.Backend;
import io.kproxy.backend.KernelException;
import io.kproxy.backend.Plan;
import io.kproxy.backend.SyncOptions;
import io.kproxy.backend.Transaction;
import io.kproxy.model.IpFamily;
import io.kproxy.state.NodeState;
import io.kproxy.state.StateDelta;
import io.kproxy.testkit.SettableClock;
import io.kproxy.testkit.netns.Addr;
import io.kproxy.testkit.netns.Outcome;
import io.kproxy.testkit.netns.Probe;
import io.kproxy.testkit.netns.Topology;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The flows of {@link IpvsPacketFlowScenario} that change the node while connections run (IPv4):
 * graceful termination of a removed endpoint (upstream's {@code graceful_termination.go}) and a
 * new backend instance taking the kernel over in place under traffic. Blocks; one thread.
 */
final class IpvsLifecycleFlows {

    /** The port of the {@link HoldServer}s behind the long-lived service. */
    static final int HOLD_PORT = 9090;
    private static final Addr A = new Addr(IpFamily.IPV4);
    private static final String VS = A.cip(20) + ":90";

    private final Topology topo;
    private final SettableClock clock;

    IpvsLifecycleFlows(Topology topo, SettableClock clock) {
        this.topo = topo;
        this.clock = clock;
    }

    /**
     * A client holds a TCP connection to the long-lived service; its endpoint is removed. The
     * real server gets weight 0 and keeps serving that connection past the one-minute check; new
     * connections go to the other endpoint; once the client is gone the next due check deletes
     * it. Returns the state without that endpoint.
     */
    NodeState gracefulTermination(IpvsBackend backend, Plan plan, NodeState state) throws Exception {
        Socket held = topo.executor("ext").call(() -> {
            Socket s = new Socket();
            s.connect(new InetSocketAddress(A.cip(20), 90), 2000);
            s.setSoTimeout(2000);
            return s;
        });
        try {
            BufferedReader in = new BufferedReader(new InputStreamReader(held.getInputStream(), StandardCharsets.UTF_8));
            PrintWriter out = new PrintWriter(held.getOutputStream(), true, StandardCharsets.UTF_8);
            String serving = in.readLine();
            String other = serving.equals("pod1") ? "rpod" : "pod1";
            System.out.println("long-lived connection served by " + serving);

            NodeState without = IpvsStates.node().state(IpvsPacketFlowScenario.services(List.of(other)));
            Plan next = backend.renderIncremental(plan, without, StateDelta.between(state, without));
            Transaction tx = backend.diff(Optional.of(plan), next, SyncOptions.at(clock.instant()));
            assertThat(tx.operations()).as("one real-server operation: " + tx.text()).isEqualTo(1);
            backend.apply(tx);
            assertThat(dest(A.of(serving))).as("draining real server " + serving).matches(d -> d.weight() == 0 && d.active() == 1);
            out.println("still there");
            assertThat(in.readLine()).isEqualTo(serving + " still there");
            for (int i = 0; i < 4; i++) {
                assertThat(greeting()).as("a new connection").isEqualTo(other);
            }

            clock.set(clock.instant().plus(Duration.ofSeconds(61)));
            backend.apply(backend.diff(Optional.of(next), next, SyncOptions.at(clock.instant())));
            assertThat(dest(A.of(serving))).as("a busy real server outlives its check").matches(d -> d.weight() == 0);
            out.println("after the check");
            assertThat(in.readLine()).isEqualTo(serving + " after the check");

            // A reset: IPVS keeps the connection in CLOSE for 10 s (TIME_WAIT would keep it 2 minutes).
            held.setSoLinger(true, 0);
            held.close();
            long deadline = System.nanoTime() + Duration.ofSeconds(40).toNanos();
            while (System.nanoTime() < deadline && !dest(A.of(serving)).idle()) {
                Thread.sleep(500);
            }
            assertThat(dest(A.of(serving)).idle()).as("the kernel forgot the connection").isTrue();
            clock.set(clock.instant().plus(Duration.ofSeconds(61)));
            backend.apply(backend.diff(Optional.of(next), next, SyncOptions.at(clock.instant())));
            assertThat(ipvsadm()).as("the idle real server is deleted at its next check").doesNotContain(A.of(serving) + ":" + HOLD_PORT)
                    .contains(A.of(other) + ":" + HOLD_PORT);
            System.out.println("FLOW ok   IPv4 graceful termination: the removed real server served its connection until it closed");
            return without;
        } finally {
            held.close();
        }
    }

    /**
     * A client connects again and again to a cluster IP while the backend is closed and a new one
     * (the provider's, as the agent makes it) takes the kernel over from its first sync: no
     * connection fails, and the takeover changes no virtual server, real server or address.
     */
    Backend restartUnderTraffic(Backend old, NodeState state) throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger ok = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        StringBuilder failures = new StringBuilder();
        Probe probe = topo.probe("pod3", 2000);
        Thread client = Thread.ofPlatform().name("restart-client").start(() -> {
            for (int i = 0; i < 5000 && !stop.get(); i++) {
                Outcome o = probe.tcp(null, A.cip(10), 80);
                if (o.kind() == Outcome.Kind.REPLY) {
                    ok.incrementAndGet();
                } else {
                    failed.incrementAndGet();
                    synchronized (failures) {
                        failures.append(o).append(' ');
                    }
                }
            }
        });
        waitFor(ok, 20);
        int before = ok.get();
        old.close();
        Backend fresh = new IpvsProvider().create(Optional.of(topo.ns("node").name()));
        Transaction takeover = fresh.diffFromKernel(fresh.render(state), SyncOptions.fullAt(clock.instant()));
        assertThat(takeover.text()).as("the takeover touches no IPVS object and no address").doesNotContain("ipvsadm -")
                .doesNotContain("ip address").doesNotContain("ipset del");
        fresh.apply(takeover);
        waitFor(ok, before + 20);
        stop.set(true);
        client.join(10_000);
        assertThat(failed.get()).as("failed connections during the restart: " + failures).isZero();
        assertThat(fresh.rulesIntact()).isTrue();
        System.out.println("FLOW ok   IPv4 restart under traffic: " + ok.get() + " connections, none failed");
        return fresh;
    }

    private static void waitFor(AtomicInteger count, int atLeast) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (count.get() < atLeast && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertThat(count.get()).as("successful connections").isGreaterThanOrEqualTo(atLeast);
    }

    /** Connects, reads the greeting, closes. */
    private String greeting() {
        return topo.executor("pod2").call(() -> {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(A.cip(20), 90), 2000);
                s.setSoTimeout(2000);
                return new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8)).readLine();
            }
        });
    }

    private String ipvsadm() {
        return topo.ns("node").exec("ipvsadm", "-Ln", "-t", VS);
    }

    record Dest(int weight, int active, int inactive) {
        boolean idle() {
            return active + inactive == 0;
        }
    }

    private static final Pattern DEST = Pattern.compile("->\\s+(\\S+)\\s+\\S+\\s+(\\d+)\\s+(\\d+)\\s+(\\d+)");

    /** The real server's line of {@code ipvsadm -Ln}: {@code -> 10.0.1.11:9090  Masq  0  1  0}. */
    private Dest dest(String ip) throws KernelException {
        for (String line : ipvsadm().lines().toList()) {
            Matcher m = DEST.matcher(line);
            if (m.find() && m.group(1).equals(ip + ":" + HOLD_PORT)) {
                return new Dest(Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)), Integer.parseInt(m.group(4)));
            }
        }
        throw new KernelException(KernelException.Kind.FATAL, "no real server " + ip + " in " + ipvsadm());
    }
}

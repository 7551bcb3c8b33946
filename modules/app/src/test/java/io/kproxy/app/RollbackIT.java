package io.kproxy.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kproxy.events.DataplanePinned;
import io.kproxy.events.DataplaneUnpinned;
import io.kproxy.events.Envelope;
import io.kproxy.events.ServiceObserved;
import io.kproxy.journal.LocalJournal;
import io.kproxy.testkit.KernelTests;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Rollback end to end (issue 9 item 5): {@code ./kproxy run} as a separate process in a node
 * namespace of the packet-test topology, fed by fabric8's mock API server (as
 * {@link AgentEndToEndIT}); a bad edit of a Service breaks real TCP connections;
 * {@code kproxy rollback --to} (over the agent's admin socket) makes them flow again while the
 * agent keeps journaling; {@code kproxy resume} brings the live (broken) state back; the journal
 * holds the pin and the unpin, appended by the admin endpoint.
 */
class RollbackIT {

    private static final String NODE = "node-a";
    private static final String WEB = "172.30.0.10";
    private static final String EXTRA = "172.30.0.30";
    private static final String POD1 = "10.0.1.11";
    private static final String POD2 = "10.0.1.12";

    private AgentWorld world;
    private AgentProcess agent;

    @BeforeEach
    void setUp() throws Exception {
        KernelTests.require("ip", "nft");
        world = AgentWorld.create("kp-rollback-");
        world.api.apply(MockApi.node(NODE, "192.168.0.2"));
        world.api.apply(MockApi.service("web", WEB));
        world.api.apply(MockApi.slice("web", List.of(new String[] {POD1, NODE}, new String[] {POD2, NODE}), Instant.now().toString()));
    }

    @AfterEach
    void tearDown() throws Exception {
        if (agent != null) {
            agent.close();
        }
        if (world != null) {
            world.close();
        }
    }

    private Path socket() {
        return world.dir.resolve("run").resolve("admin.sock");
    }


    record Run(int exit, String out, String err) {
    }

    private Run kproxy(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cmd = Main.commandLine();
        cmd.setOut(new PrintWriter(out));
        cmd.setErr(new PrintWriter(err));
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--admin-socket", socket().toString()));
        int exit = cmd.execute(all.toArray(String[]::new));
        return new Run(exit, out.toString(), err.toString());
    }

    @Test
    void breakRollBackTrafficFlowsResumeLiveStateReturnsJournalHoldsPinAndUnpin() throws Exception {
        agent = AgentProcess.start(world.topo.ns("node").prefix(), List.of("run", "--hostname-override", NODE, "--master",
                "http://127.0.0.1:" + AgentWorld.API_PORT, "--proxy-mode", "nftables", "--cluster-cidr", "10.0.0.0/16", "--journal-dir",
                world.dir.resolve("journal").toString(), "--admin-socket", socket().toString(), "--iptables-sync-period", "2s",
                "--iptables-min-sync-period", "0s", "--healthz-bind-address", "0.0.0.0:10256", "--metrics-bind-address",
                "127.0.0.1:10249"), "rollback-agent.log");
        await("web reachable").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250))
                .until(() -> world.tcpServers(WEB, 1).contains("pod1") || world.tcpServers(WEB, 1).contains("pod2") || !agent.alive());
        assertThat(agent.alive()).as("agent alive; log:%n%s", agent.output()).isTrue();
        await("admin socket").atMost(Duration.ofSeconds(30)).until(() -> Files.exists(socket()));
        assertThat(world.tcpServers(WEB, 30)).containsExactlyInAnyOrder("pod1", "pod2");
        Thread.sleep(1_100);
        Instant good = Instant.now();
        Thread.sleep(1_100);

        // A bad edit: the slice points at 8081, where nothing listens. Real connections fail.
        world.api.apply(MockApi.slice("web", List.of(new String[] {POD1, NODE}, new String[] {POD2, NODE}), Instant.now().toString(), 8081));
        await("web broken").atMost(Duration.ofSeconds(30)).until(() -> world.tcpServers(WEB, 3).equals(Set.of("REJECTED")));

        // Bad input: a clear message, a non-zero exit, nothing journaled.
        Run before = kproxy("rollback", "--to", "2001-01-01T00:00:00Z");
        assertThat(before.exit()).isEqualTo(2);
        assertThat(before.err()).startsWith("kproxy rollback: before-journal: time 2001-01-01T00:00:00Z is before the journal's first record");
        assertThat(kproxy("resume").err()).contains("not-pinned");

        Run rollback = kproxy("rollback", "--to", good.toString(), "--reason", "web points at 8081");
        assertThat(rollback.exit()).as("%s%s", rollback.out(), rollback.err()).isZero();
        assertThat(rollback.out()).contains("dataplane pinned to the state at " + good).contains("programmed by sync generation");
        assertThat(world.tcpServers(WEB, 30)).as("traffic flows again").containsExactlyInAnyOrder("pod1", "pod2");
        Run status = kproxy("status");
        assertThat(status.out()).startsWith("dataplane: PINNED to offset ").contains(": web points at 8081");
        NetnsHttp.Response healthz = NetnsHttp.get(world.node, "127.0.0.1", 10256, "/healthz");
        assertThat(healthz.status()).isEqualTo(200);
        assertThat(healthz.body()).containsPattern("\"dataplanePinned\": true, \"pinnedToOffset\": \\d+}$");
        assertThat(NetnsHttp.get(world.node, "127.0.0.1", 10249, "/metrics").body()).contains("kproxy_dataplane_pinned 1.0");

        // Journaling continues under the pin: a new Service is recorded, not programmed.
        world.api.apply(MockApi.service("extra", EXTRA));
        world.api.apply(MockApi.slice("extra", List.<String[]>of(new String[] {POD1, NODE}), Instant.now().toString()));
        Thread.sleep(2_000);
        assertThat(world.tcpServers(EXTRA, 3)).as("pinned: the new Service is not programmed").doesNotContain("pod1");
        assertThat(world.tcpServers(WEB, 10)).containsExactlyInAnyOrder("pod1", "pod2");

        Run resume = kproxy("resume", "--reason", "someone else fixes web");
        assertThat(resume.exit()).as("%s%s", resume.out(), resume.err()).isZero();
        assertThat(resume.out()).contains("dataplane resumed live state");
        assertThat(world.tcpServers(WEB, 5)).as("the live (broken) state returns").containsExactly("REJECTED");
        assertThat(world.tcpServers(EXTRA, 10)).as("and what was journaled meanwhile").containsExactly("pod1");
        assertThat(kproxy("status").out()).startsWith("dataplane: live");
        assertThat(NetnsHttp.get(world.node, "127.0.0.1", 10249, "/metrics").body()).contains("kproxy_dataplane_pinned 0.0");

        assertThat(agent.terminate()).isIn(0, 143);
        agent = null;
        try (LocalJournal j = LocalJournal.openReadOnly(world.dir.resolve("journal"))) {
            List<Envelope> all = j.read(0, Integer.MAX_VALUE);
            Envelope pin = all.stream().filter(e -> e.event() instanceof DataplanePinned).findFirst().orElseThrow();
            Envelope unpin = all.stream().filter(e -> e.event() instanceof DataplaneUnpinned).findFirst().orElseThrow();
            assertThat(pin.source()).isEqualTo("admin");
            assertThat(((DataplanePinned) pin.event()).reason()).isEqualTo("web points at 8081");
            long to = ((DataplanePinned) pin.event()).toOffset();
            assertThat(all.get((int) to).recordedAt()).isBeforeOrEqualTo(good);
            assertThat(all.get((int) to + 1).recordedAt()).isAfter(good);
            assertThat(unpin.offset()).isGreaterThan(pin.offset());
            assertThat(((DataplaneUnpinned) unpin.event()).reason()).isEqualTo("someone else fixes web");
            assertThat(all.stream().filter(e -> e.offset() > pin.offset() && e.offset() < unpin.offset())
                    .anyMatch(e -> e.event() instanceof ServiceObserved s && s.service().name().equals("extra")))
                    .as("journaling continued while pinned").isTrue();
        }
    }
}

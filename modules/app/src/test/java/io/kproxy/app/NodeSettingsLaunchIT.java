package io.kproxy.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kproxy.testkit.KernelTests;
import io.kproxy.testkit.NetNs;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 19 item 4 through the real launch: {@code ./kproxy run}, a separate process inside a
 * network namespace the test creates, applies {@code oomScoreAdj} to itself and the conntrack
 * timeouts to its namespace at start (before: its score stayed 0 and the established-TCP timeout
 * 432000). No API server answers; the node settings come before that. The test JVM's own score and
 * the machine's namespace are only read, before and after.
 */
class NodeSettingsLaunchIT {

    private static final String ESTABLISHED = "/proc/sys/net/netfilter/nf_conntrack_tcp_timeout_established";
    /** CAP_SYS_RESOURCE (linux/capability.h): needed to lower an OOM score below the lowest set before. */
    private static final int CAP_SYS_RESOURCE = 24;

    private Path shortDir;
    private String ownScore;
    private String hostEstablished;

    @BeforeEach
    void setUp() throws IOException {
        KernelTests.require("ip");
        // Short and under /tmp: the admin socket's path must fit in 107 bytes.
        shortDir = Files.createTempDirectory(Path.of("/tmp"), "kp-node-");
        ownScore = read(Path.of("/proc/self/oom_score_adj"));
        hostEstablished = read(Path.of(ESTABLISHED));
    }

    @AfterEach
    void tearDown() throws IOException {
        try (var files = Files.walk(shortDir)) {
            for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
        assertThat(read(Path.of("/proc/self/oom_score_adj"))).as("the test JVM's own score").isEqualTo(ownScore);
        assertThat(read(Path.of(ESTABLISHED))).as("the machine's namespace").isEqualTo(hostEstablished);
    }

    /** A procfs file in one read (a sysctl answers a read at a non-zero offset with end-of-file). */
    private static String read(Path p) throws IOException {
        try (InputStream in = Files.newInputStream(p)) {
            return new String(in.readAllBytes(), StandardCharsets.US_ASCII).strip();
        }
    }

    private AgentProcess start(NetNs ns, String log, String... extra) throws IOException {
        List<String> args = new ArrayList<>(List.of("run", "--hostname-override", "node-a", "--master", "http://127.0.0.1:1", "--proxy-mode",
                "nftables", "--cluster-cidr", "10.0.0.0/16", "--journal-dir", shortDir.resolve("journal").toString(), "--admin-socket",
                shortDir.resolve("admin.sock").toString()));
        args.addAll(List.of(extra));
        AgentProcess agent = AgentProcess.start(ns.prefix(), args, log);
        await("agent started").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> agent.output().contains("decision=agent-started") || !agent.alive());
        assertThat(agent.alive()).as("agent alive; log:%n%s", agent.output()).isTrue();
        return agent;
    }

    private static String score(AgentProcess agent) throws IOException {
        return read(Path.of("/proc", Long.toString(agent.pid()), "oom_score_adj"));
    }

    private static boolean hasCapSysResource() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("CapEff:")) {
                return (Long.parseUnsignedLong(line.substring(7).strip(), 16) & (1L << CAP_SYS_RESOURCE)) != 0;
            }
        }
        return false;
    }

    @Test
    void theAgentSetsItsConfiguredOomScoreAndUpstreamsConntrackTimeoutsInItsNamespace() throws Exception {
        try (NetNs ns = NetNs.create("nodeset")) {
            assertThat(ns.exec("cat", ESTABLISHED).strip()).isEqualTo("432000");
            // A raise needs no capability, so this holds in any root environment.
            try (AgentProcess agent = start(ns, "node-settings-agent.log", "--oom-score-adj", "345")) {
                assertThat(score(agent)).as("the agent's own oom_score_adj").isEqualTo("345");
                assertThat(ns.exec("cat", ESTABLISHED).strip()).isEqualTo("86400");
                assertThat(ns.exec("cat", "/proc/sys/net/netfilter/nf_conntrack_tcp_timeout_close_wait").strip()).isEqualTo("3600");
                String out = agent.output();
                assertThat(out).contains(
                        "decision=node-setting action=applied setting=net.netfilter.nf_conntrack_tcp_timeout_established from=432000 to=86400",
                        "decision=node-setting action=applied setting=/proc/self/oom_score_adj from=" + ownScore + " to=345");
                assertThat(out.indexOf("decision=node-setting")).as("before anything else starts").isLessThan(out.indexOf("decision=config-recorded"));
                assertThat(agent.terminate()).isIn(0, 143);
            }
        }
    }

    @Test
    void upstreamsDefaultOfMinus999IsSetWhereThePlatformAllowsAndAFailureIsOnlyLogged() throws Exception {
        try (NetNs ns = NetNs.create("nodeoom"); AgentProcess agent = start(ns, "node-settings-oom-agent.log")) {
            if (hasCapSysResource()) {
                assertThat(score(agent)).as("the agent's own oom_score_adj").isEqualTo("-999");
            } else {
                // Lowering below the inherited minimum needs CAP_SYS_RESOURCE (fs/proc/base.c, __set_oom_adj): upstream logs and runs on.
                assertThat(score(agent)).isEqualTo(ownScore);
                assertThat(agent.output()).contains("level=WARN logger=NodeSettings thread=main decision=node-setting action=failed "
                        + "setting=/proc/self/oom_score_adj wanted=-999 error=\"");
            }
            assertThat(agent.alive()).isTrue();
            assertThat(agent.terminate()).isIn(0, 143);
        }
    }
}

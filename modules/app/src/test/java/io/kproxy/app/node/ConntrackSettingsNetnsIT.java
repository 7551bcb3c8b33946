package io.kproxy.app.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.config.ConfigTrees;
import io.kproxy.config.ConntrackConfig;
import io.kproxy.config.loader.ConfigLoader;
import io.kproxy.testkit.KernelTests;
import io.kproxy.testkit.NetNs;
import io.kproxy.netns.NetnsThread;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/**
 * The conntrack settings on the real kernel, inside a network namespace the test creates: the
 * setter runs on a thread that entered it ({@code setns(2)}), through the same
 * {@link Sysctls#host()} the agent uses, and the values are read back by {@code ip netns exec
 * cat}. The machine's own namespace is only read, before and after, and must not change. The
 * machine-wide knobs (nf_conntrack_max, hashsize) are never written here: the kernel makes
 * nf_conntrack_max read-only in a non-initial namespace, the test checks that first, and the
 * setter refuses them.
 */
class ConntrackSettingsNetnsIT {

    private static final List<Knob> CONNTRACK = List.of(Knob.NF_CONNTRACK_MAX, Knob.CONNTRACK_HASHSIZE, Knob.TCP_TIMEOUT_ESTABLISHED,
            Knob.TCP_TIMEOUT_CLOSE_WAIT, Knob.TCP_BE_LIBERAL, Knob.UDP_TIMEOUT, Knob.UDP_TIMEOUT_STREAM);

    private Map<Knob, Long> hostBefore;

    @BeforeEach
    void setUp() throws IOException {
        KernelTests.require("ip");
        hostBefore = hostValues();
    }

    /** This JVM's main thread never enters a namespace: these are the machine's own values. */
    private static Map<Knob, Long> hostValues() throws IOException {
        Map<Knob, Long> m = new EnumMap<>(Knob.class);
        for (Knob k : CONNTRACK) {
            try (InputStream in = Files.newInputStream(Path.of("/", k.relativePath()))) {
                // One read: a sysctl answers a read at a non-zero offset with end-of-file.
                m.put(k, Long.parseLong(new String(in.readAllBytes(), StandardCharsets.US_ASCII).strip()));
            }
        }
        return m;
    }

    private static long inNamespace(NetNs ns, Knob k) {
        return Long.parseLong(ns.exec("cat", "/" + k.relativePath()).strip());
    }

    /** Applies {@code config} on a thread inside {@code ns}, after checking the kernel's rule that keeps the host's knobs safe. */
    private static List<Setting> applyInside(NetNs ns, ConntrackConfig config) {
        try (NetnsThread inside = NetnsThread.enter(ns.name(), "test")) {
            return inside.call(() -> {
                Sysctls sys = Sysctls.host();
                if (!Files.exists(Path.of("/", Knob.TCP_TIMEOUT_ESTABLISHED.relativePath()))) {
                    String why = "the nf_conntrack sysctls are absent in a new network namespace (nf_conntrack not loaded)";
                    if (KernelTests.required()) {
                        throw new AssertionFailedError(why);
                    }
                    throw new TestAbortedException(why + "; skipped");
                }
                assertThat(sys.ownerWritable(Knob.NF_CONNTRACK_MAX))
                        .as("nf_conntrack_max is read-only in a non-initial network namespace (mode 0444); else this test could reach the host's")
                        .isFalse();
                List<Setting> out = new ArrayList<>();
                ConntrackSettings.apply(config, sys, out::add);
                return out;
            });
        }
    }

    @Test
    void upstreamsDefaultsSetTheNamespacesTcpTimeoutsAndLeaveTheHostAlone() throws IOException {
        try (NetNs ns = NetNs.create("ctdef")) {
            assertThat(inNamespace(ns, Knob.TCP_TIMEOUT_ESTABLISHED)).as("a new namespace starts at the kernel's 5 days").isEqualTo(432_000);
            long udp = inNamespace(ns, Knob.UDP_TIMEOUT);
            long udpStream = inNamespace(ns, Knob.UDP_TIMEOUT_STREAM);

            List<Setting> s = applyInside(ns, ConfigTrees.defaults().conntrack());

            assertThat(inNamespace(ns, Knob.TCP_TIMEOUT_ESTABLISHED)).isEqualTo(86_400);
            assertThat(inNamespace(ns, Knob.TCP_TIMEOUT_CLOSE_WAIT)).isEqualTo(3_600);
            assertThat(inNamespace(ns, Knob.TCP_BE_LIBERAL)).isZero();
            assertThat(inNamespace(ns, Knob.UDP_TIMEOUT)).isEqualTo(udp);
            assertThat(inNamespace(ns, Knob.UDP_TIMEOUT_STREAM)).isEqualTo(udpStream);
            assertThat(s.get(2)).isEqualTo(new Setting.Applied(Knob.TCP_TIMEOUT_ESTABLISHED, 432_000, 86_400));
            assertThat(s.subList(0, 2)).noneMatch(x -> x instanceof Setting.Applied);
        }
        assertThat(hostValues()).isEqualTo(hostBefore);
    }

    @Test
    void everyPerNamespaceKnobIsSetAndTheHostsKnobsAreRefusedInsideANamespace() throws IOException {
        ConntrackConfig config = ConfigLoader.load("""
                apiVersion: kubeproxy.config.k8s.io/v1alpha1
                kind: KubeProxyConfiguration
                conntrack:
                  maxPerCore: 524288
                  tcpEstablishedTimeout: 2h
                  tcpCloseWaitTimeout: 30m
                  tcpBeLiberal: true
                  udpTimeout: 33s
                  udpStreamTimeout: 133s
                """).conntrack();
        try (NetNs ns = NetNs.create("ctall")) {
            List<Setting> s = applyInside(ns, config);

            assertThat(inNamespace(ns, Knob.TCP_TIMEOUT_ESTABLISHED)).isEqualTo(7_200);
            assertThat(inNamespace(ns, Knob.TCP_TIMEOUT_CLOSE_WAIT)).isEqualTo(1_800);
            assertThat(inNamespace(ns, Knob.TCP_BE_LIBERAL)).isEqualTo(1);
            assertThat(inNamespace(ns, Knob.UDP_TIMEOUT)).isEqualTo(33);
            assertThat(inNamespace(ns, Knob.UDP_TIMEOUT_STREAM)).isEqualTo(133);
            // maxPerCore x CPUs is capped at 1,048,576; below that on this host, the kernel keeps it for the initial namespace.
            if (hostBefore.get(Knob.NF_CONNTRACK_MAX) < ConntrackSettings.MAX_LIMIT) {
                assertThat(s.get(0)).isEqualTo(new Setting.Refused(Knob.NF_CONNTRACK_MAX, hostBefore.get(Knob.NF_CONNTRACK_MAX),
                        ConntrackSettings.MAX_LIMIT, ConntrackSettings.NOT_INITIAL_NAMESPACE));
            }
            assertThat(s.subList(0, 2)).noneMatch(x -> x instanceof Setting.Applied);
        }
        assertThat(hostValues()).isEqualTo(hostBefore);
    }
}

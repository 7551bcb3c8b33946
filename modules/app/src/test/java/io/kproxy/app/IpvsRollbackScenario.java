package io.kproxy.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.backend.Backend;
import io.kproxy.backend.spi.BackendProvider;
import io.kproxy.config.ConfigTrees;
import io.kproxy.config.ProxyConfig;
import io.kproxy.config.loader.ConfigLoader;
import io.kproxy.engine.ControlAnswer;
import io.kproxy.engine.DataplaneControl;
import io.kproxy.engine.Engine;
import io.kproxy.engine.EngineOptions;
import io.kproxy.events.ConfigRecorded;
import io.kproxy.events.ResourceKind;
import io.kproxy.events.SourceSynced;
import io.kproxy.events.SyncApplied;
import io.kproxy.events.SyncKind;
import io.kproxy.journal.MemoryEventLog;
import io.kproxy.model.NodeName;
import io.kproxy.testkit.EndpointSliceFixture;
import io.kproxy.testkit.NetNs;
import io.kproxy.testkit.ServiceFixture;
import io.kproxy.testkit.uml.UmlScenario;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Runs inside User-Mode Linux ({@link IpvsRollbackUmlIT}): an agent in ipvs mode (the engine
 * over a journal, with the installed ipvs backend programming a network namespace's real IPVS)
 * syncs a good generation and then a bad one; pinning the good offset (what {@code kproxy
 * rollback} asks over the admin socket, as {@link RollbackIT} shows for nftables) makes the
 * kernel show that generation's virtual servers, real servers, {@code kube-ipvs0} addresses and
 * set members again, in a full sync that reports the pinned offset; resuming brings the live state
 * back. Prints {@code SCENARIO PASS} and exits 0.
 */
public final class IpvsRollbackScenario {

    private static final Duration WAIT = Duration.ofSeconds(60);

    private IpvsRollbackScenario() {
    }

    public static void main(String[] args) {
        UmlScenario.exit(IpvsRollbackScenario::run);
    }

    static void run() throws Exception {
        try (NetNs ns = NetNs.create("ipvs-rollback")) {
            MemoryEventLog log = new MemoryEventLog();
            ProxyConfig config = ConfigLoader.load("apiVersion: kubeproxy.config.k8s.io/v1alpha1\nkind: KubeProxyConfiguration\nmode: ipvs\n");
            log.append("t", new ConfigRecorded(new NodeName("node-a"), ConfigTrees.toTree(config))).join();
            Backend backend = BackendProvider.forMode("ipvs").orElseThrow().create(Optional.of(ns.name()));
            Engine engine = Engine.start(Engine.Wiring.production(log, backend, EngineOptions.of(config),
                    new PrometheusMeterRegistry(PrometheusConfig.DEFAULT)));
            try {
                log.append("t", ServiceFixture.service("demo", "web").clusterIP("172.30.0.2").port("http", 80, "TCP", 0).observed()).join();
                log.append("t", EndpointSliceFixture.slice("demo", "web-1", "web").port("http", 8080, "TCP").endpoint("10.0.1.5")
                        .node("node-a").observed()).join();
                log.append("t", new SourceSynced(ResourceKind.SERVICE, "1")).join();
                long good = log.append("t", new SourceSynced(ResourceKind.ENDPOINT_SLICE, "1")).join();
                await(ns, s -> s.contains("-a -t 172.30.0.2:80 -r 10.0.1.5:8080"));
                System.out.println("good generation, offset " + good + ":\n" + ns.exec("ipvsadm", "-Sn"));

                // The bad rollout: web's endpoint replaced, a Service added.
                log.append("t", EndpointSliceFixture.slice("demo", "web-1", "web").resourceVersion("2").port("http", 8080, "TCP")
                        .endpoint("10.0.1.99").node("node-a").observed()).join();
                log.append("t", ServiceFixture.service("demo", "extra").clusterIP("172.30.0.3").port("http", 80, "TCP", 0).observed()).join();
                log.append("t", EndpointSliceFixture.slice("demo", "extra-1", "extra").port("http", 8080, "TCP").endpoint("10.0.1.7")
                        .node("node-a").observed()).join();
                await(ns, s -> s.contains("-r 10.0.1.99:8080") && s.contains("-A -t 172.30.0.3:80") && !s.contains("10.0.1.5"));

                ControlAnswer pinned = engine.control().pin(new DataplaneControl.To.Offset(good), "bad rollout", WAIT);
                assertThat(pinned).as(pinned.message()).isInstanceOf(ControlAnswer.Done.class);
                String ipvs = ns.exec("ipvsadm", "-Sn");
                System.out.println("pinned to offset " + good + ":\n" + ipvs);
                assertThat(ipvs).contains("-A -t 172.30.0.2:80 -s rr").contains("-a -t 172.30.0.2:80 -r 10.0.1.5:8080")
                        .doesNotContain("10.0.1.99").doesNotContain("172.30.0.3");
                assertThat(ns.exec("ip", "-4", "addr", "show", "dev", "kube-ipvs0")).contains("172.30.0.2/32").doesNotContain("172.30.0.3");
                assertThat(ns.exec("ipset", "list", "KUBE-CLUSTER-IP")).contains("172.30.0.2,tcp:80").doesNotContain("172.30.0.3");
                SyncApplied last = syncs(log).getLast();
                assertThat(last.uptoOffset()).as("the pinned sync reports the pinned offset").isEqualTo(good);
                assertThat(last.kind()).isEqualTo(SyncKind.FULL);
                assertThat(last.backend()).isEqualTo("ipvs");
                System.out.println("FLOW ok   ipvs rollback: the kernel holds the pinned generation's virtual servers");

                ControlAnswer resumed = engine.control().unpin("fixed", WAIT);
                assertThat(resumed).as(resumed.message()).isInstanceOf(ControlAnswer.Done.class);
                await(ns, s -> s.contains("-r 10.0.1.99:8080") && s.contains("-A -t 172.30.0.3:80") && !s.contains("10.0.1.5"));
                System.out.println("FLOW ok   ipvs resume: the live generation is back");
            } finally {
                engine.close(Duration.ofSeconds(5));
                backend.cleanup();
                backend.close();
            }
        }
    }

    /** Until {@code ipvsadm -Sn} inside {@code ns} satisfies {@code ok}; bounded by {@link #WAIT}. */
    private static void await(NetNs ns, Predicate<String> ok) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        String s = ns.exec("ipvsadm", "-Sn");
        while (!ok.test(s) && System.nanoTime() < deadline) {
            Thread.sleep(100);
            s = ns.exec("ipvsadm", "-Sn");
        }
        assertThat(ok.test(s)).as("ipvsadm -Sn:%n%s", s).isTrue();
    }

    private static List<SyncApplied> syncs(MemoryEventLog log) {
        return log.read(0, 100_000).stream().map(e -> e.event()).filter(SyncApplied.class::isInstance).map(SyncApplied.class::cast).toList();
    }
}

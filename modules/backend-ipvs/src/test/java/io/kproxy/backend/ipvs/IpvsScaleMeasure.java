package io.kproxy.backend.ipvs;

import static io.kproxy.backend.testkit.States.ep;
import static io.kproxy.backend.testkit.States.port;

import io.kproxy.backend.MemoryKernelPort;
import io.kproxy.backend.Plan;
import io.kproxy.backend.SyncOptions;
import io.kproxy.backend.Transaction;
import io.kproxy.backend.ipvs.spi.MemoryIpvsKernel;
import io.kproxy.backend.testkit.States;
import io.kproxy.state.NodeState;
import io.kproxy.state.StateDelta;
import io.kproxy.testkit.SettableClock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Rough CPU cost of the ipvs backend's pure part at 10,000 ClusterIP services with 5 endpoints
 * each (not part of the suite: the name matches no surefire include; run it by name): a render
 * from scratch, a full diff into an empty kernel and its hash (three rounds, the JIT warming), one
 * apply to the in-memory kernel, and 30 single-endpoint changes (incremental render, diff, hash;
 * each must be one operation) as p50/p99. Printed as {@code MEASURE} lines on standard output.
 *
 * <pre>./mvnw -o verify -pl modules/backend-ipvs -Dsurefire.failIfNoSpecifiedTests=false -Dtest=IpvsScaleMeasure</pre>
 */
class IpvsScaleMeasure {

    @Test
    void measure() throws Exception {
        List<States.PortSpec> specs = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            int n = i;
            specs.add(port("ns" + (i % 50), "svc" + i, "p", "172.30." + (i / 250) + "." + (i % 250 + 1), 80).with(p -> {
                for (int k = 0; k < 5; k++) {
                    p.endpoints.add(ep("10." + (n / 250 % 250) + "." + (n % 250) + "." + (k + 1), 8080, k == 0));
                }
                return p;
            }));
        }
        NodeState s = IpvsStates.state(specs);
        MemoryIpvsKernel kernel = new MemoryIpvsKernel();
        IpvsBackend b = IpvsProvider.create(IpvsSettings.DEFAULT, kernel, new MemoryKernelPort(), new SettableClock(Instant.EPOCH));
        for (int round = 0; round < 3; round++) {
            long t0 = System.nanoTime();
            Plan p = b.render(s);
            long t1 = System.nanoTime();
            Transaction full = b.diff(Optional.empty(), p, SyncOptions.at(Instant.EPOCH));
            long t2 = System.nanoTime();
            String h = p.rulesetHash();
            long t3 = System.nanoTime();
            System.out.printf("MEASURE render=%dms diff-full=%dms ops=%d chars=%d hash=%dms%n", (t1 - t0) / 1_000_000, (t2 - t1) / 1_000_000,
                    full.operations(), full.text().length(), (t3 - t2) / 1_000_000);
            if (round == 0) {
                long a0 = System.nanoTime();
                b.apply(full);
                System.out.printf("MEASURE apply-fake=%dms%n", (System.nanoTime() - a0) / 1_000_000);
            }
        }
        Plan last = b.render(s);
        last.rulesetHash();
        b.diff(Optional.empty(), last, SyncOptions.at(Instant.EPOCH));
        List<Long> times = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            int idx = i * 17;
            var original = specs.get(idx).endpoints;
            specs.get(idx).endpoints = new ArrayList<>(original);
            specs.get(idx).endpoints.add(ep("10.251.0." + (idx % 250 + 1), 8080, false));
            NodeState ns = IpvsStates.state(specs);
            specs.get(idx).endpoints = original;
            long t0 = System.nanoTime();
            Plan inc = b.renderIncremental(last, ns, StateDelta.between(s, ns));
            Transaction tx = b.diff(Optional.of(last), inc, SyncOptions.at(Instant.EPOCH));
            inc.rulesetHash();
            times.add((System.nanoTime() - t0) / 1_000);
            if (tx.operations() != 1) {
                throw new AssertionError(tx.text());
            }
        }
        times.sort(Long::compare);
        System.out.printf("MEASURE one-endpoint render+diff+hash p50=%dus p99=%dus%n", times.get(15), times.get(29));
    }
}

package io.kproxy.backend.ipvs;

import static io.kproxy.backend.testkit.States.ep;
import static io.kproxy.backend.testkit.States.ip;
import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.backend.MemoryKernelPort;
import io.kproxy.backend.Plan;
import io.kproxy.backend.SyncOptions;
import io.kproxy.backend.Transaction;
import io.kproxy.backend.ipvs.spi.IpvsKernel;
import io.kproxy.backend.ipvs.spi.MemoryIpvsKernel;
import io.kproxy.backend.ipvs.spi.VsKey;
import io.kproxy.backend.testkit.States;
import io.kproxy.model.IpFamily;
import io.kproxy.model.Protocol;
import io.kproxy.state.NodeState;
import io.kproxy.state.StateDelta;
import io.kproxy.testkit.SettableClock;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A forced full sync (the engine's periodic one) compares with what the kernel holds, so that a
 * real server, a set member or an address removed by someone else is put back, as upstream's
 * reconcile at every sync does; a partial sync and the probe before it read no set's members, no
 * real servers and no addresses of {@code kube-ipvs0}, and send only the planned change.
 */
class KernelRepairTest {

    private static final Instant T0 = Instant.parse("2026-11-26T10:00:00Z");

    private final MemoryIpvsKernel memory = new MemoryIpvsKernel();
    private final List<String> reads = new ArrayList<>();
    /** The fake, with every call's method name noted. */
    private final IpvsKernel kernel = (IpvsKernel) Proxy.newProxyInstance(IpvsKernel.class.getClassLoader(), new Class<?>[] {IpvsKernel.class},
            (proxy, method, args) -> {
                reads.add(method.getName());
                try {
                    return method.invoke(memory, args);
                } catch (InvocationTargetException e) {
                    throw e.getCause();
                }
            });
    private final IpvsBackend backend = IpvsProvider.create(IpvsSettings.DEFAULT, kernel, new MemoryKernelPort(), new SettableClock(T0));
    private final NodeState state = IpvsStates.state(List.of(IpvsStates.web(), IpvsStates.dns()));

    private Plan firstSync() throws Exception {
        Plan plan = backend.render(state);
        Transaction tx = backend.diffFromKernel(plan, SyncOptions.fullAt(T0));
        backend.apply(tx);
        return tx.result();
    }

    @Test
    void aForcedFullSyncPutsBackWhatSomeoneElseRemoved() throws Exception {
        Plan applied = firstSync();
        String programmed = memory.dump();
        VsKey web = new VsKey(Protocol.TCP, ip("172.30.0.41"), 80);
        memory.deleteRealServer(web, ip("10.180.1.1"), 8080);
        memory.deleteSetEntry(IpSets.CLUSTER_IP.name(IpFamily.IPV4), "172.30.0.10,udp:53");
        memory.deleteAddress(PartText.DUMMY, ip("172.30.0.41"));
        assertThat(memory.dump()).isNotEqualTo(programmed);

        Transaction partial = backend.diff(Optional.of(applied), backend.renderIncremental(applied, state, StateDelta.between(state, state)),
                SyncOptions.at(T0));
        assertThat(partial.isEmpty()).as("a partial sync trusts its last plan").isTrue();

        Transaction full = backend.diff(Optional.of(applied), backend.render(state), SyncOptions.fullAt(T0));
        assertThat(full.text()).contains("ipvsadm -a -t 172.30.0.41:80 -r 10.180.1.1:8080 -m -w 1")
                .contains("ipset add KUBE-CLUSTER-IP 172.30.0.10,udp:53").contains("ip address add 172.30.0.41/32 dev kube-ipvs0");
        backend.apply(full);
        assertThat(memory.dump()).isEqualTo(programmed);
    }

    @Test
    void thePartialSyncAndItsProbeReadNoMembersRealServersOrAddresses() throws Exception {
        Plan applied = firstSync();
        States.PortSpec web = IpvsStates.web().with(p -> {
            p.endpoints.add(ep("10.180.2.1", 8080, false));
            return p;
        });
        NodeState next = IpvsStates.state(List.of(web, IpvsStates.dns()));
        reads.clear();
        assertThat(backend.rulesIntact()).isTrue();
        Transaction tx = backend.diff(Optional.of(applied), backend.renderIncremental(applied, next, StateDelta.between(state, next)),
                SyncOptions.at(T0));
        backend.apply(tx);
        assertThat(tx.operations()).isEqualTo(1);
        assertThat(reads).doesNotContain("sets", "setEntries", "realServers", "addresses").contains("setExists", "addRealServer");
    }
}

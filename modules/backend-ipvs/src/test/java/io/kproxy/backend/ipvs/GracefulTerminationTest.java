package io.kproxy.backend.ipvs;

import static io.kproxy.backend.testkit.States.ep;
import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.backend.Transaction;
import io.kproxy.backend.ipvs.spi.MemoryIpvsKernel;
import io.kproxy.backend.ipvs.spi.VsKey;
import io.kproxy.backend.testkit.States;
import io.kproxy.model.IpAddress;
import io.kproxy.model.Protocol;
import io.kproxy.testkit.SettableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Upstream's graceful termination ({@code pkg/proxy/ipvs/graceful_termination.go}) on a clock: a
 * TCP real server removed while it has connections gets weight 0, is checked a minute later, and
 * is deleted at the first check that finds it idle; one without connections goes at once; one
 * that comes back serves again; the plan's deferred work brings the engine back for each check.
 */
class GracefulTerminationTest {

    private static final Instant T0 = Instant.parse("2026-11-26T10:00:00Z");
    private static final VsKey WEB = new VsKey(Protocol.TCP, IpAddress.parse("172.30.0.41"), 80);
    private static final IpAddress LEAVING = IpAddress.parse("10.180.1.1");

    private final SettableClock clock = new SettableClock(T0);
    private Cycle cycle;
    private MemoryIpvsKernel kernel;
    private IpvsBackend backend;

    @BeforeEach
    void firstSync() throws Exception {
        cycle = new Cycle(clock, List.of(IpvsStates.web()));
        kernel = cycle.kernel;
        backend = cycle.backend;
    }

    private Transaction sync(List<States.PortSpec> specs) throws Exception {
        return cycle.sync(specs);
    }

    private static States.PortSpec webWithoutLeaving() {
        return IpvsStates.web().with(p -> {
            p.endpoints.removeIf(e -> e.ip().equals(LEAVING));
            return p;
        });
    }

    private String weightOfLeaving() throws Exception {
        return kernel.realServers(WEB).stream().filter(d -> d.server().address().equals(LEAVING)).map(d -> "w" + d.server().weight())
                .findFirst().orElse("gone");
    }

    @Test
    void aBusyRealServerDrainsAndGoesAtTheFirstIdleCheck() throws Exception {
        kernel.setConnections(WEB, LEAVING, 8080, 2, 1);
        Transaction removed = sync(List.of(webWithoutLeaving()));
        assertThat(removed.text()).isEqualTo("ipvsadm -e -t 172.30.0.41:80 -r 10.180.1.1:8080 -m -w 0 # graceful termination\n");
        assertThat(weightOfLeaving()).isEqualTo("w0");
        assertThat(removed.result().nextDeferredWork()).contains(T0.plus(Duration.ofMinutes(1)));

        clock.set(T0.plusSeconds(30));
        assertThat(sync(List.of(webWithoutLeaving())).isEmpty()).as("not due yet").isTrue();

        clock.set(T0.plusSeconds(61));
        Transaction check = sync(List.of(webWithoutLeaving()));
        assertThat(check.text()).isEqualTo("ipvsadm -d -t 172.30.0.41:80 -r 10.180.1.1:8080 # once idle\n");
        assertThat(weightOfLeaving()).as("still has connections").isEqualTo("w0");
        assertThat(check.result().nextDeferredWork()).contains(T0.plusSeconds(121));

        kernel.setConnections(WEB, LEAVING, 8080, 0, 0);
        clock.set(T0.plusSeconds(125));
        Transaction last = sync(List.of(webWithoutLeaving()));
        assertThat(last.operations()).isEqualTo(1);
        assertThat(weightOfLeaving()).isEqualTo("gone");
        assertThat(backend.draining().due()).isEmpty();

        clock.set(T0.plusSeconds(190));
        Transaction after = sync(List.of(webWithoutLeaving()));
        assertThat(after.isEmpty()).isTrue();
        assertThat(after.result().nextDeferredWork()).isEmpty();
    }

    @Test
    void anIdleRealServerGoesAtOnce() throws Exception {
        sync(List.of(webWithoutLeaving()));
        assertThat(weightOfLeaving()).isEqualTo("gone");
        assertThat(backend.draining().due()).isEmpty();
    }

    @Test
    void aDrainingRealServerThatComesBackServesAgain() throws Exception {
        kernel.setConnections(WEB, LEAVING, 8080, 1, 0);
        sync(List.of(webWithoutLeaving()));
        Transaction back = sync(List.of(IpvsStates.web()));
        assertThat(back.text()).isEqualTo("ipvsadm -e -t 172.30.0.41:80 -r 10.180.1.1:8080 -m -w 1\n");
        assertThat(weightOfLeaving()).isEqualTo("w1");
        assertThat(backend.draining().due()).isEmpty();
    }

    @Test
    void aServiceDeletedWhileDrainingTakesItsRealServersWithIt() throws Exception {
        kernel.setConnections(WEB, LEAVING, 8080, 1, 0);
        sync(List.of(webWithoutLeaving(), IpvsStates.dns()));
        Transaction gone = sync(List.of(IpvsStates.dns()));
        assertThat(gone.text()).contains("ipvsadm -D -t 172.30.0.41:80");
        assertThat(backend.draining().due()).isEmpty();
        assertThat(gone.result().nextDeferredWork()).isEmpty();
        assertThat(kernel.dump()).doesNotContain("172.30.0.41");
    }

    @Test
    void aRemovedEndpointOfAnotherTcpPortStaysUntouched() throws Exception {
        kernel.setConnections(WEB, LEAVING, 8080, 1, 0);
        Transaction tx = sync(List.of(webWithoutLeaving(), IpvsStates.web().with(p -> {
            p.name = "other";
            p.clusterIP = "172.30.0.77";
            p.endpoints.add(ep("10.180.3.3", 80, false));
            return p;
        })));
        assertThat(tx.text()).contains("# graceful termination").contains("ipvsadm -A -t 172.30.0.77:80 -s rr");
    }
}

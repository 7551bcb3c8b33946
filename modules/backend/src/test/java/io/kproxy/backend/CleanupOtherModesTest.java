package io.kproxy.backend;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.backend.spi.BackendProvider;
import io.kproxy.backend.spi.ConntrackPort;
import io.kproxy.backend.spi.KernelPort;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CleanupOtherModesTest {

    record Fake(String mode, List<String> calls, boolean fail) implements BackendProvider {
        @Override
        public Backend create(Optional<String> netns) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Backend create(KernelPort kernel, ConntrackPort conntrack) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void cleanupLeftovers(Optional<String> netns) throws KernelException {
            calls.add(mode + "@" + netns.orElse("-"));
            if (fail) {
                throw new KernelException(KernelException.Kind.FATAL, "no such tool");
            }
        }
    }

    @Test
    void cleansEveryOtherModeAndReportsFailuresWithoutThrowing() {
        List<String> calls = new ArrayList<>();
        List<BackendProvider> providers = List.of(new Fake("nftables", calls, false), new Fake("iptables", calls, false),
                new Fake("ipvs", calls, true));
        List<String> failed = BackendProvider.cleanupOtherModes(providers, "iptables", Optional.of("ns1"));
        assertThat(calls).containsExactly("nftables@ns1", "ipvs@ns1");
        assertThat(failed).containsExactly("ipvs");
    }
}

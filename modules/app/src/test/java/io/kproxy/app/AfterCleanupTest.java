package io.kproxy.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.backend.Backend;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The start-up cleanup's gate: kernel calls wait for the other modes' cleanup, pure ones do not. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AfterCleanupTest {

    private final List<String> calls = new CopyOnWriteArrayList<>();

    /** A backend that records the name of each call and answers nothing (null, 0, false). */
    private Backend recording() {
        return (Backend) Proxy.newProxyInstance(Backend.class.getClassLoader(), new Class<?>[] {Backend.class}, (proxy, m, args) -> {
            calls.add(m.getName());
            return switch (m.getReturnType().getName()) {
                case "boolean" -> false;
                case "int" -> 0;
                case "java.util.Optional" -> Optional.empty();
                default -> null;
            };
        });
    }

    @Test
    void kernelCallsWaitForTheCleanupAndPureOnesDoNot() throws Exception {
        CompletableFuture<Void> cleaned = new CompletableFuture<>();
        Backend b = new AfterCleanup(recording(), cleaned);

        b.render(null);
        b.diff(Optional.empty(), null, null);
        assertThat(calls).containsExactly("render", "diff");

        CompletableFuture<Void> kernel = CompletableFuture.runAsync(() -> {
            try {
                b.rulesIntact();
                b.apply(null);
                b.localAddresses();
                b.cleanConntrack(List.of());
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        Thread.sleep(300);
        assertThat(kernel).as("waiting for the cleanup").isNotDone();
        assertThat(calls).containsExactly("render", "diff");

        cleaned.complete(null);
        kernel.get(10, TimeUnit.SECONDS);
        assertThat(calls).containsExactly("render", "diff", "rulesIntact", "apply", "localAddresses", "cleanConntrack");
        b.check(null);
        b.cleanup();
        b.diffFromKernel(null, null);
        assertThat(calls).endsWith("check", "cleanup", "diffFromKernel");
    }
}

package io.kproxy.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;

/** {@code kproxy ui} and {@code run --ui-listen}: the address, and the refusals before anything is served (docs/ui.md). */
class UiCommandTest {

    @Test
    void addressesAreNumericHostAndPort() throws Exception {
        assertThat(UiCommand.address("127.0.0.1:8080")).isEqualTo(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 8080));
        assertThat(UiCommand.address("[::1]:0")).isEqualTo(new InetSocketAddress(InetAddress.getByName("::1"), 0));
        assertThat(UiCommand.address("0.0.0.0:9000").getPort()).isEqualTo(9000);
        assertThatThrownBy(() -> UiCommand.address("localhost:8080")).hasMessageContaining("must be an IP address");
        assertThatThrownBy(() -> UiCommand.address("::1:8080")).hasMessageContaining("in brackets");
        assertThatThrownBy(() -> UiCommand.address("127.0.0.1:70000")).hasMessageContaining("out of range");
        assertThatThrownBy(() -> UiCommand.address("127.0.0.1:http")).hasMessageContaining("not a number");
        assertThatThrownBy(() -> UiCommand.address("8080")).hasMessageContaining("is not HOST:PORT");
    }

    @Test
    void aBadAddressOrAMissingJournalIsOneLineAndAnExitCode() {
        RenderCommandTest.Run bad = RenderCommandTest.run("ui", "--journal", TimeTravelCommandsTest.SAMPLE.toString(), "--listen", "example.org:80");
        assertThat(bad.exit()).isEqualTo(2);
        assertThat(bad.err().strip()).isEqualTo("kproxy ui: --listen: \"example.org:80\": the host must be an IP address (127.0.0.1, ::1, 0.0.0.0), not a name");
        RenderCommandTest.Run none = RenderCommandTest.run("ui", "--journal", "/nonexistent/journal", "--listen", "127.0.0.1:0");
        assertThat(none.exit()).isEqualTo(5);
        assertThat(none.err().strip()).isEqualTo("kproxy ui: no journal directory at /nonexistent/journal");
        RenderCommandTest.Run run = RenderCommandTest.run("run", "--ui-listen", "nowhere");
        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).startsWith("kproxy run: --ui-listen: \"nowhere\" is not HOST:PORT");
    }
}

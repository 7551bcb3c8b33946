package io.kproxy.app;

import io.kproxy.history.HistoryException;
import io.kproxy.ui.UiServer;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code kproxy ui --journal DIR [--listen 127.0.0.1:8080]}: the read-only page over a journal
 * ({@link UiServer}, docs/ui.md) until SIGTERM or Ctrl-C. Wiring only.
 */
@Command(name = "ui", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Serve a read-only page over a journal: a timeline of observations, relists, syncs, failures, pins and quiet gaps; "
                + "per-Service swimlanes of endpoints; at a clicked moment the ruleset programmed then and the diff to the sync before, "
                + "with the records that caused each change. Nothing is written; safe beside a running agent.",
                "Reach a node's page with kubectl port-forward (docs/ui.md)."},
        exitCodeListHeading = "Exit codes:%n",
        exitCodeList = {"0:stopped by a signal", "2:bad usage: an address that does not parse", "5:no journal there, or it cannot be opened",
                "1:the address cannot be bound"})
final class UiCommand implements Callable<Integer> {

    static final String DEFAULT_LISTEN = "127.0.0.1:8080";

    @Spec
    CommandSpec spec;

    @Option(names = "--journal", required = true, paramLabel = "DIR", description = "The journal directory (read only; a copy is fine).")
    Path journal;

    @Option(names = "--listen", paramLabel = "HOST:PORT", defaultValue = DEFAULT_LISTEN,
            description = "Where to serve the page (default: ${DEFAULT-VALUE}, loopback only). [::1]:8080 for IPv6; port 0 picks one.")
    String listen;

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        InetSocketAddress address;
        try {
            address = address(listen);
        } catch (IllegalArgumentException e) {
            err.println("kproxy ui: --listen: " + e.getMessage());
            err.flush();
            return HistoryExits.USAGE;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        UiServer server;
        try {
            server = UiServer.forJournal(journal, address);
        } catch (HistoryException e) {
            return HistoryExits.report(err, "ui", e);
        } catch (IOException e) {
            err.println("kproxy ui: cannot serve on " + listen + ": " + e.getMessage());
            err.flush();
            return HistoryExits.FAILED;
        }
        Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().name("kproxy-ui-shutdown").unstarted(() -> {
            server.close();
            stopped.countDown();
        }));
        InetSocketAddress bound = server.address();
        String host = bound.getAddress() instanceof java.net.Inet6Address ? "[" + bound.getAddress().getHostAddress() + "]"
                : bound.getAddress().getHostAddress();
        err.println("kproxy ui: serving " + journal + " on http://" + host + ":" + bound.getPort() + "/ (read only; Ctrl-C stops)");
        err.flush();
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            server.close();
        }
        return HistoryExits.OK;
    }

    /**
     * {@code HOST:PORT} ({@code [v6]:PORT} for IPv6) as a numeric address: a name is refused, so
     * that the page never binds somewhere a resolver chose.
     *
     * @throws IllegalArgumentException naming what is wrong
     */
    static InetSocketAddress address(String text) {
        int colon = text.lastIndexOf(':');
        if (colon <= 0 || colon == text.length() - 1) {
            throw new IllegalArgumentException("\"" + text + "\" is not HOST:PORT (e.g. " + DEFAULT_LISTEN + ")");
        }
        String host = text.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        } else if (host.contains(":")) {
            throw new IllegalArgumentException("\"" + text + "\": write an IPv6 address in brackets, e.g. [::1]:8080");
        }
        int port;
        try {
            port = Integer.parseInt(text.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("\"" + text + "\": the port is not a number");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("\"" + text + "\": the port is out of range [0, 65535]");
        }
        if (!host.matches("[0-9.]+|[0-9a-fA-F:]*:[0-9a-fA-F:.]*")) {
            throw new IllegalArgumentException("\"" + text + "\": the host must be an IP address (127.0.0.1, ::1, 0.0.0.0), not a name");
        }
        try {
            return new InetSocketAddress(InetAddress.getByName(host), port);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("\"" + text + "\": " + e.getMessage());
        }
    }
}

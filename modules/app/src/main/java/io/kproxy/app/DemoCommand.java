package io.kproxy.app;

import io.kproxy.backend.spi.BackendProvider;
import io.kproxy.demo.Demo;
import io.kproxy.demo.DemoOptions;
import io.kproxy.demo.ProtocolAdminSocket;
import io.kproxy.model.ServiceRef;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code kproxy demo}: the newcomer's tour. Replays the recorded sample history through the real
 * engine; as root into private network namespaces with real connections, showing the moment a
 * bad change breaks a Service, the rollback that fixes it and the resume that brings the live
 * state back; otherwise render-only. See {@link Demo}.
 */
@Command(name = "demo", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Replay a recorded hour of a cluster through the real engine: watch a bad change break a Service, roll back, "
                + "resume.", "As root it programs private network namespaces (removed afterwards) and makes real connections; "
                        + "otherwise it only renders."})
final class DemoCommand implements Callable<Integer> {

    /** The sample the demo replays unless told otherwise (events/samples/README.md). */
    static final String SAMPLE = "events/samples/cluster-hour";

    @Spec
    CommandSpec spec;

    @Option(names = "--history", paramLabel = "DIR", description = "The recorded history, a journal directory (default: " + SAMPLE
            + " of this repository).")
    Path history;

    @Option(names = "--service", paramLabel = "NS/NAME", defaultValue = "shop/checkout",
            description = "The Service to probe: the one the sample's bad change breaks (default: ${DEFAULT-VALUE}).")
    String service;

    @Option(names = "--replay-seconds", paramLabel = "S", defaultValue = "60",
            description = "How long the replay of the whole history takes, 1 to 100 (default: ${DEFAULT-VALUE}).")
    int replaySeconds;

    @Option(names = "--keep-journal", paramLabel = "DIR", description = "Write the demo's journal to DIR (new or empty) and keep it.")
    Path keep;

    @Option(names = "--render-only", description = "Do not program any kernel, even as root.")
    boolean renderOnly;

    @Option(names = "--mode", paramLabel = "MODE", description = "Render and program in this proxy mode (nftables, iptables, ipvs) "
            + "instead of the one the history recorded.")
    String mode;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        DemoOptions options;
        try {
            Path dir = history != null ? history : defaultHistory().orElse(null);
            if (dir == null) {
                err.println("kproxy demo: no recorded history found (" + SAMPLE + " of the repository); give one with --history DIR");
                err.flush();
                return 2;
            }
            if (keep != null && Files.isDirectory(keep)) {
                try (var entries = Files.list(keep)) {
                    if (entries.findAny().isPresent()) {
                        err.println("kproxy demo: --keep-journal " + keep + " is not empty");
                        err.flush();
                        return 2;
                    }
                }
            }
            if (mode != null && BackendProvider.forMode(mode).isEmpty()) {
                err.println("kproxy demo: --mode " + mode + ": no such backend (installed: "
                        + String.join(", ", BackendProvider.all().stream().map(BackendProvider::mode).sorted().toList()) + ")");
                err.flush();
                return 2;
            }
            options = new DemoOptions(dir, ServiceRef.parse(service), Duration.ofSeconds(replaySeconds), Optional.ofNullable(keep),
                    renderOnly, Optional.ofNullable(mode));
        } catch (IllegalArgumentException | IOException e) {
            err.println("kproxy demo: " + e.getMessage());
            err.flush();
            return 2;
        }
        Path log;
        try {
            log = Files.createTempFile("kproxy-demo-", ".log");
        } catch (IOException e) {
            err.println("kproxy demo: cannot create a log file: " + e.getMessage());
            err.flush();
            return 1;
        }
        Logging.toFile(log);
        return Demo.run(options, new ProtocolAdminSocket(), out, err, System.console() != null && System.console().isTerminal(), log);
    }

    /** {@value #SAMPLE} above the working directory, or above where this code was loaded from. */
    static Optional<Path> defaultHistory() {
        Optional<Path> here = above(Path.of("").toAbsolutePath());
        if (here.isPresent()) {
            return here;
        }
        try {
            return above(Path.of(DemoCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI()));
        } catch (URISyntaxException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private static Optional<Path> above(Path start) {
        for (Path p = start; p != null; p = p.getParent()) {
            if (Files.isDirectory(p.resolve(SAMPLE))) {
                return Optional.of(p.resolve(SAMPLE));
            }
        }
        return Optional.empty();
    }
}

package io.kproxy.demo;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code kproxy demo}: a recorded history replayed through the real engine. As root, with
 * network namespaces, into a private network with real connections ({@link LiveDemo});
 * otherwise render-only ({@link RenderOnlyDemo}), saying why. Everything the demo creates is
 * removed when it ends, fails or is interrupted (Ctrl-C). Exit codes: 0 shown, 1 failed, 2 the
 * history or Service cannot be used. Blocks; never prints a stack trace.
 */
public final class Demo {

    private Demo() {
    }

    /**
     * @param admin    the agent's admin socket, which the live demo rolls back and resumes through
     *                 (unused when it only renders)
     * @param terminal standard error is a terminal (draw a progress bar)
     * @param log      where the engine's log goes (kept, and named, when the demo fails)
     */
    public static int run(DemoOptions options, AdminSocket admin, PrintWriter out, PrintWriter err, boolean terminal, Path log) {
        Console console = new Console(out, err, terminal);
        History history;
        try {
            history = History.load(options.history(), options.service());
        } catch (History.Unusable e) {
            console.problem(e.getMessage());
            deleteQuietly(log);
            return 2;
        }
        History.Target t = history.target();
        console.line("kproxy demo: " + options.history() + ": " + history.records().size() + " records of node " + history.node() + ", "
                + Console.time(history.start()) + " to " + Console.time(history.end()) + " (" + Narration.human(history.span()) + ").");
        console.line("Probed Service: " + t.service() + " at " + t.clusterIP() + ":" + t.port() + "; its pods listen on port "
                + t.goodPorts().first() + (t.goodPorts().size() > 1 ? " and others" : "") + ".");
        String why = options.renderOnly() ? "--render-only was given" : !root() ? "not running as root"
                : !Ip.available("ip") ? "the ip command (iproute2) is not installed" : "";
        Cleanup cleanup = new Cleanup();
        Thread hook = Thread.ofPlatform().unstarted(() -> {
            if (!cleanup.closed()) {
                console.problem("interrupted: removing the demo's network namespaces and files");
            }
            cleanup.close();
        });
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            DemoNet net = null;
            if (why.isEmpty()) {
                try {
                    net = cleanup.add(DemoNet.build(t.podIPs(), t.goodPorts()));
                } catch (Ip.Failed e) {
                    why = "cannot build network namespaces (" + e.getMessage() + ")";
                }
            }
            if (net == null) {
                console.line("RENDER-ONLY: " + why + ", so no kernel is programmed and no connection is made. Run it as root "
                        + "(sudo ./kproxy demo) to see real traffic fail, the rollback fix it, and the resume break it again.");
                console.line("");
                deleteQuietly(log); // no engine runs: nothing to log
                return RenderOnlyDemo.run(options.history(), history, options.modeOr(history.mode()), console);
            }
            Path work = cleanup.directory(Files.createTempDirectory("kproxy-demo-"));
            int exit = LiveDemo.run(history, options, admin, console, cleanup, net, work);
            cleanup.close();
            deleteQuietly(log);
            return exit;
        } catch (LiveDemo.Failure e) {
            console.problem(e.getMessage() + " (the engine's log: " + log + ")");
            return 1;
        } catch (IOException | RuntimeException e) {
            console.problem((e.getMessage() == null ? e.toString() : e.getMessage()) + " (the engine's log: " + log + ")");
            return 1;
        } finally {
            cleanup.close();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // the JVM is already shutting down (Ctrl-C): the hook runs the same cleanup
            }
        }
    }

    /** Whether this process runs as root (uid 0). */
    static boolean root() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Uid:")) {
                    List<String> ids = List.of(line.substring(4).strip().split("\\s+"));
                    return ids.get(1).equals("0");
                }
            }
        } catch (IOException | RuntimeException e) {
            return false;
        }
        return false;
    }

    private static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException e) {
            // a log file left in /tmp is harmless
        }
    }
}

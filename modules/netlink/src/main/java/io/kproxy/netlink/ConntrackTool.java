package io.kproxy.netlink;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The {@code conntrack} tool (conntrack-tools), inside a named namespace when given. Thread-safe; blocks.
 */
public final class ConntrackTool {

    private final Optional<String> netns;

    public ConntrackTool(Optional<String> netns) {
        this.netns = netns;
    }

    /** Exit code and output of {@code conntrack <args>}. */
    public record Output(int exitCode, String stdout, String stderr) {
    }

    public Output run(List<String> args) {
        List<String> cmd = new ArrayList<>();
        cmd.add("conntrack");
        cmd.addAll(args);
        Commands.Result r = Commands.run(Commands.inNetns(netns, cmd), null, Duration.ofSeconds(30));
        return new Output(r.exitCode(), r.stdout(), r.stderr());
    }
}

package io.kproxy.backend.iptables;

import io.kproxy.netlink.Commands;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Runs an iptables tool through the shared {@link Commands} runner, inside a named network
 * namespace when given ({@code ip netns exec}), with a time limit; the tool is looked up on PATH
 * and in the sbin directories first. Thread-safe; blocks.
 */
final class Proc {

    private final Optional<String> netns;
    private final Duration timeout;

    Proc(Optional<String> netns, Duration timeout) {
        this.netns = netns;
        this.timeout = timeout;
    }

    Optional<String> netns() {
        return netns;
    }

    /** Exit code and output of {@code command}; exit code -1 means the time limit passed, -2 that the tool could not start. */
    Commands.Result run(List<String> command, String stdin) {
        List<String> resolved = new ArrayList<>();
        resolved.add(resolve(command.getFirst()));
        resolved.addAll(command.subList(1, command.size()));
        return Commands.run(Commands.inNetns(netns, resolved), stdin, timeout, command);
    }

    /** True when {@code tool} is an executable on PATH or in /usr/sbin, /sbin. */
    static boolean exists(String tool) {
        return !resolve(tool).equals(tool) || tool.startsWith("/");
    }

    /** The absolute path of a tool (PATH, then /usr/sbin and /sbin, where iptables lives), or the name itself. */
    static String resolve(String tool) {
        if (tool.contains("/")) {
            return tool;
        }
        List<String> dirs = new ArrayList<>(List.of(System.getenv().getOrDefault("PATH", "").split(":")));
        dirs.addAll(List.of("/usr/sbin", "/sbin", "/usr/bin", "/bin"));
        for (String d : dirs) {
            if (!d.isEmpty() && Files.isExecutable(Path.of(d, tool))) {
                return Path.of(d, tool).toString();
            }
        }
        return tool;
    }
}

package io.kproxy.netlink;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The fallback when libnftables cannot be loaded: an {@code nft -f -} process per script
 * ({@code nft -c -f -} for a dry run), inside {@code ip netns exec <name>} when a namespace is
 * given. Thread-safe; blocks up to the timeout.
 */
public final class CommandNftExecutor implements NftExecutor {

    private final Optional<String> netns;
    private final Duration timeout;

    public CommandNftExecutor(Optional<String> netns, Duration timeout) {
        this.netns = netns;
        this.timeout = timeout;
    }

    @Override
    public NftResult run(String script, boolean dryRun) {
        List<String> cmd = new ArrayList<>(List.of("nft"));
        if (dryRun) {
            cmd.add("-c");
        }
        cmd.addAll(List.of("-f", "-"));
        Commands.Result r = Commands.run(Commands.inNetns(netns, cmd), script, timeout);
        return new NftResult(r.exitCode() == 0, r.stdout(), r.stderr());
    }

    @Override
    public NftResult list(String command) {
        Commands.Result r = Commands.run(Commands.inNetns(netns, List.of("nft", "-f", "-")), command, timeout);
        return new NftResult(r.exitCode() == 0, r.stdout(), r.stderr());
    }

    @Override
    public String kind() {
        return "nft-command";
    }

    @Override
    public void close() {
    }
}

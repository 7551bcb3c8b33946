package io.kproxy.chaos;

import io.kproxy.testkit.NetNs;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Makes the kernel refuse the agent's nftables transactions for a while, in the node's namespace
 * only: another process takes ownership of the agent's table. An nftables table created with
 * {@code flags owner} (NFT_TABLE_F_OWNER, Linux 5.12) belongs to the netlink socket that created
 * it, and the kernel refuses every change to it from any other socket with EPERM ("Operation not
 * permitted"), as it does for a table a firewall daemon owns. The runner's {@code nft -i} swaps,
 * in one transaction, the agent's table for an owned copy of what the kernel holds (so packets
 * see the same rules throughout), keeps its socket open while the fault lasts, then, from that
 * socket, swaps the owned copy back for an unowned one, again in one transaction, and exits.
 * The agent's retries then succeed. (nft 1.0.6 cannot spell {@code flags persist}, which would
 * let the table outlive its owner; so the release is a swap, never a plain exit, which would
 * delete the owned table and the rules with it.) Not thread-safe.
 */
final class KernelRefusal implements AutoCloseable {

    private final Process nft;
    private final OutputStream commands;
    private final Path release;
    private final String held;

    private KernelRefusal(Process nft, Path release, String held) {
        this.nft = nft;
        this.commands = nft.getOutputStream();
        this.release = release;
        this.held = held;
    }

    /**
     * Takes the node's {@code table ip kube-proxy}; {@code dir} holds the two nft files. Fails
     * when the table does not exist or the swap is refused.
     */
    static KernelRefusal hold(NetNs node, Path dir) throws IOException, InterruptedException {
        NetNs.Result listed = node.tryExecWithInput(null, "nft", "list", "table", "ip", "kube-proxy");
        if (listed.exitCode() != 0) {
            throw new IOException("no table ip kube-proxy to take: " + listed.stderr().strip());
        }
        String table = listed.stdout();
        Path acquire = dir.resolve("refusal-acquire.nft");
        Path release = dir.resolve("refusal-release.nft");
        Files.writeString(acquire, "delete table ip kube-proxy\n" + table.replaceFirst("\\{", "{\n\tflags owner"));
        Files.writeString(release, "delete table ip kube-proxy\n" + table);
        List<String> cmd = new ArrayList<>(node.prefix());
        cmd.addAll(List.of("nft", "-i"));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir.resolve("refusal-nft.log").toFile()).start();
        KernelRefusal r = new KernelRefusal(p, release, table);
        r.send("include \"" + acquire + "\"");
        // Owned once the listing says so (bounded: 10 s).
        for (int i = 0; i < 50; i++) {
            NetNs.Result now = node.tryExecWithInput(null, "nft", "list", "table", "ip", "kube-proxy");
            if (now.exitCode() == 0 && now.stdout().contains("flags owner")) {
                return r;
            }
            Thread.sleep(200);
        }
        r.close();
        throw new IOException("the owned copy of table ip kube-proxy did not appear; see refusal-nft.log");
    }

    /** The table as the kernel listed it when it was taken. */
    String held() {
        return held;
    }

    private void send(String line) throws IOException {
        commands.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        commands.flush();
    }

    /** Swaps the owned table back for an unowned copy, from the owning socket, and ends nft. */
    @Override
    public void close() throws IOException {
        try {
            if (nft.isAlive()) {
                send("include \"" + release + "\"");
            }
            commands.close();
        } catch (IOException e) {
            // nft already gone: the kernel deleted its owned table; the agent's retry recreates it
        }
        try {
            if (!nft.waitFor(10, TimeUnit.SECONDS)) {
                nft.destroyForcibly();
                nft.waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            nft.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}

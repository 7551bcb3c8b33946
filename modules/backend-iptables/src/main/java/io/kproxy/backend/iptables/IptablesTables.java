package io.kproxy.backend.iptables;

import io.kproxy.netlink.Commands;
import io.kproxy.netlink.NfFamily;
import io.kproxy.netlink.NfTablesClient;
import io.kproxy.netlink.NfTablesException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Which iptables tables a namespace holds, found without running iptables: the nf_tables tables
 * iptables-nft keeps its rules in (tables {@code filter}, {@code nat}, {@code mangle}, {@code raw}
 * and {@code security} of families {@code ip} and {@code ip6}: iptables' {@code nft.c} table list),
 * read with one netlink dump of the table names, and the tables iptables-legacy instantiated in
 * the namespace ({@code /proc/net/ip_tables_names}, {@code ip6_tables_names}; absent when the
 * kernel has not loaded {@code ip_tables}). Neither creates a table. A namespace with none of them
 * holds no iptables rule, kproxy's or anyone's, so the other modes' cleanup has nothing to remove
 * there and skips the iptables tools, each of which reads the whole nf_tables ruleset of its
 * family: the nftables mode's own table, 100,000 chains at 100,000 Services
 * (docs/backends/iptables.md, "Cleanup and other modes"). Blocks.
 */
final class IptablesTables {

    /** iptables-nft's table names. */
    static final Set<String> NFT_NAMES = Set.of("filter", "nat", "mangle", "raw", "security");

    private IptablesTables() {
    }

    /**
     * The iptables tables of the namespace ({@code "nft ip nat"}, {@code "legacy ip6 filter"}), or
     * empty when it could not tell (the kernel or a tool did not answer): then the caller does what
     * it would have done without asking.
     */
    static Optional<List<String>> present(Proc proc) {
        List<String> found = new ArrayList<>();
        try (NfTablesClient nft = NfTablesClient.open(proc.netns())) {
            for (NfFamily family : NfFamily.values()) {
                String word = family == NfFamily.IPV4 ? "ip" : "ip6";
                for (String table : nft.tables(family)) {
                    if (NFT_NAMES.contains(table)) {
                        found.add("nft " + word + " " + table);
                    }
                }
            }
        } catch (NfTablesException e) {
            return Optional.empty();
        }
        for (String word : List.of("ip", "ip6")) {
            Optional<List<String>> legacy = legacyTables(proc, "/proc/net/" + word + "_tables_names");
            if (legacy.isEmpty()) {
                return Optional.empty();
            }
            legacy.get().forEach(t -> found.add("legacy " + word + " " + t));
        }
        return Optional.of(List.copyOf(found));
    }

    /** The table names in {@code file} as the namespace sees it; none when the file does not exist (ip_tables not loaded). */
    private static Optional<List<String>> legacyTables(Proc proc, String file) {
        if (proc.netns().isEmpty()) {
            try {
                return Optional.of(names(Files.readString(Path.of(file))));
            } catch (NoSuchFileException e) {
                return Optional.of(List.of());
            } catch (IOException e) {
                return Optional.empty();
            }
        }
        // /proc/net is the reading process's namespace: read it from a process inside the named one
        Commands.Result r = proc.run(List.of("cat", file), null);
        if (r.ok()) {
            return Optional.of(names(r.stdout()));
        }
        return r.stderr().contains("No such file") ? Optional.of(List.of()) : Optional.empty();
    }

    private static List<String> names(String text) {
        return text.lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
    }
}

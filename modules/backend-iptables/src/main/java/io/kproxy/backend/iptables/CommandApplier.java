package io.kproxy.backend.iptables;

import io.kproxy.backend.KernelException;
import io.kproxy.backend.Transaction;
import io.kproxy.model.IpFamily;
import io.kproxy.netlink.Commands;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The real {@link Applier}: {@code iptables-restore --noflush} of the detected variant, one
 * family at a time, inside the target namespace. A full sync first reads the kernel
 * ({@code iptables-save}) to add the missing jump rules and to sweep stale chains of an earlier
 * run ({@link Augment}), and sets {@code route_localnet} when localhost NodePorts are on. How a
 * section runs depends on the variant: iptables-legacy commits a whole table per restore, so
 * every block of a table is merged into one; iptables-nft's {@code --noflush} restore costs
 * chains x rules created in one run, so the blocks run as several restores of at most
 * {@link #RUN_CHAINS} new chains each (docs/backends/iptables.md). Blocks; one caller at a time.
 */
final class CommandApplier implements Applier {

    private static final Logger LOG = LoggerFactory.getLogger(CommandApplier.class);
    static final int RUN_CHAINS = 2000;
    private static final Pattern NFT_LINE = Pattern.compile("Error occurred at line: (\\d+)");
    private static final Pattern LEGACY_LINE = Pattern.compile("line (\\d+) failed");
    private static final Pattern MISSING_CHAIN = Pattern.compile("Chain '([^']+)' does not exist");
    private static final Pattern RETRYABLE = Pattern.compile(
            "xtables lock|Resource temporarily unavailable|timed out|interrupted|Cannot allocate memory|No buffer space available");

    private final Proc proc;
    private final Variant variant;
    private final Set<IpFamily> families;

    CommandApplier(Proc proc, Variant variant, Set<IpFamily> families) {
        this.proc = proc;
        this.variant = variant;
        this.families = Set.copyOf(families);
    }

    Variant variant() {
        return variant;
    }

    @Override
    public void apply(Transaction tx, IptPlan desired) throws KernelException {
        for (Script.Section section : Script.parse(tx.text()).sections()) {
            Fam f = Fam.of(section.family());
            if (!families.contains(f.family())) {
                LOG.warn("iptables family skipped family={} reason=no-{}-support", f.family(), f.tool());
                continue;
            }
            FamilyPlan fp = f.v6() ? desired.v6() : desired.v4();
            long start = System.nanoTime();
            String extra = "";
            Set<String> existing = Set.of();
            if (tx.isFull()) {
                SaveDump dump = SaveDump.parse(save(f, variant));
                existing = dump.chains("nat");
                extra = " " + Augment.apply(section, dump, fp);
                if (fp.top().localhostNodePorts()) {
                    routeLocalnet();
                }
            }
            List<String> runs = variant == Variant.LEGACY ? List.of(section.merged()) : section.runs(RUN_CHAINS, existing);
            for (String run : runs) {
                restore(f, variant, run, false);
            }
            LOG.info("iptables restore family={} variant={} kind={} runs={} millis={}{}", f.family(), variant.word(), tx.kind(), runs.size(),
                    (System.nanoTime() - start) / 1_000_000, extra);
        }
    }

    @Override
    public void check(Transaction tx) throws KernelException {
        for (Script.Section section : Script.parse(tx.text()).sections()) {
            if (families.contains(section.family())) {
                restore(Fam.of(section.family()), variant, section.merged(), true);
            }
        }
    }

    @Override
    public void cleanup() throws KernelException {
        for (IpFamily family : families) {
            Fam f = Fam.of(family);
            for (Variant v : Variant.values()) {
                if (v != variant && !Proc.exists(v.tool(f, "save"))) {
                    continue;
                }
                SaveDump dump = SaveDump.parse(save(f, v));
                String text = Cleanup.text(dump);
                if (!text.isEmpty()) {
                    restore(f, v, text, false);
                    LOG.info("iptables cleanup family={} variant={} operations={}", family, v.word(), RestoreWriter.operations(text));
                }
            }
        }
    }

    @Override
    public boolean rulesIntact() throws KernelException {
        for (IpFamily family : families) {
            Fam f = Fam.of(family);
            if (chainExists(f, "mangle", Words.KUBE_PROXY_CANARY)) {
                continue;
            }
            // Upstream's Monitor: wait briefly for the other canaries to go too, so that a
            // firewall reload in progress is not raced (pkg/util/iptables/iptables.go).
            for (int i = 0; i < 50; i++) {
                if (!chainExists(f, "nat", Words.KUBE_PROXY_CANARY) && !chainExists(f, "filter", Words.KUBE_PROXY_CANARY)) {
                    break;
                }
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
            LOG.info("iptables canary missing family={} variant={} decision=full-sync", family, variant.word());
            return false;
        }
        return true;
    }

    @Override
    public String describe() {
        return "iptables-" + variant.word() + proc.netns().map(n -> " netns=" + n).orElse("");
    }

    @Override
    public void close() {
    }

    private boolean chainExists(Fam f, String table, String chain) {
        return proc.run(List.of(variant.tool(f, ""), "-w", "5", "-t", table, "-S", chain), null).ok();
    }

    private String save(Fam f, Variant v) throws KernelException {
        Commands.Result r = proc.run(List.of(v.tool(f, "save")), null);
        if (!r.ok()) {
            throw new KernelException(KernelException.Kind.RETRYABLE, v.tool(f, "save") + " failed: " + r.stderr().strip());
        }
        return r.stdout();
    }

    private void routeLocalnet() throws KernelException {
        // Upstream's NewProxier: localhost NodePorts need route_localnet (https://issues.k8s.io/90259).
        Commands.Result r = proc.run(List.of("sysctl", "-q", "-w", "net.ipv4.conf.all.route_localnet=1"), null);
        if (!r.ok()) {
            throw new KernelException(KernelException.Kind.FATAL, "cannot set net.ipv4.conf.all.route_localnet=1: " + r.stderr().strip());
        }
    }

    private void restore(Fam f, Variant v, String text, boolean test) throws KernelException {
        List<String> cmd = new ArrayList<>(List.of(v.tool(f, "restore"), "--noflush", "--counters", "-w", "5", "-W", "100000"));
        if (test) {
            cmd.add("--test");
        }
        Commands.Result r = proc.run(cmd, text);
        if (!r.ok()) {
            throw refusal(text, r.stderr().isBlank() ? "exit " + r.exitCode() : r.stderr(), r.exitCode() == -1);
        }
    }

    /** Turns the tool's complaint into a typed error naming the failing line of its input. */
    static KernelException refusal(String input, String error, boolean timedOut) {
        KernelException.Kind kind = timedOut || RETRYABLE.matcher(error).find() ? KernelException.Kind.RETRYABLE : KernelException.Kind.FATAL;
        Matcher m = NFT_LINE.matcher(error);
        Matcher l = LEGACY_LINE.matcher(error);
        int line = m.find() ? Integer.parseInt(m.group(1)) : l.find() ? Integer.parseInt(l.group(1)) : 0;
        String[] lines = input.split("\n", -1);
        Matcher missing = MISSING_CHAIN.matcher(error);
        if (missing.find() && line >= 1 && line <= lines.length && lines[line - 1].equals("COMMIT")) {
            // iptables-nft checks jump targets when it commits and names the COMMIT line: point at the jump instead.
            for (int i = 0; i < lines.length; i++) {
                if (lines[i].endsWith("-j " + missing.group(1)) || lines[i].contains("-j " + missing.group(1) + " ")) {
                    line = i + 1;
                    break;
                }
            }
        }
        if (line >= 1 && line <= lines.length) {
            return new KernelException(kind, error.strip(), line, lines[line - 1], null);
        }
        return new KernelException(kind, error.strip());
    }
}

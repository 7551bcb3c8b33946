package io.kproxy.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Issue 18, defects 5-7, as a property: seeded bad configurations (wrong types, out-of-range
 * numbers, unknown or unavailable enum values, out-of-bounds durations, oversized strings and
 * files, deep nesting, aliases, merge keys, an alias bomb, duplicate keys, bytes that are not
 * UTF-8, files that are not regular files) go through {@code kproxy run --config FILE
 * --write-config-to OUT}, the command class itself. Every one must be refused with exit 2 and a
 * message naming its field (or, for what is wrong with the text itself, its line or the file's
 * limit), never crash (no exception, no stack trace), never hang (each case has 10 s), never
 * allocate more than 64 MiB, and never write the configuration. The counts are printed
 * ({@code bad-config-fuzz ...}); the seed is {@code -Dkproxy.seed} or the clock's, and is in
 * every failure message.
 */
class BadConfigPropertyTest {

    private static final String HEADER = "apiVersion: kubeproxy.config.k8s.io/v1alpha1\nkind: KubeProxyConfiguration\n";
    private static final long TIMEOUT_MS = 10_000;
    private static final long HEAP_BUDGET = 64L << 20;
    private static final int CASES = 400;

    /** One bad configuration: the file's bytes (or a special file), and what the refusal must mention (any of). */
    record Case(String name, byte[] bytes, Path special, List<String> expect) {
    }

    /** What one run did. */
    record Outcome(int exit, String err, long allocated, Throwable thrown, boolean wrote) {
    }

    @Test
    void everyBadConfigurationIsRefusedWithExit2AndItsField(@TempDir Path dir) throws Exception {
        long seed = Long.getLong("kproxy.seed", System.nanoTime());
        Random random = new Random(seed);
        List<Case> cases = new ArrayList<>();
        for (int i = 0; i < CASES; i++) {
            cases.add(generate(random));
        }
        cases.addAll(specialFiles(dir));
        int crashes = 0;
        int hangs = 0;
        int accepted = 0;
        int unnamed = 0;
        int overBudget = 0;
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < cases.size(); i++) {
            Case c = cases.get(i);
            Path file = c.special() != null ? c.special() : Files.write(dir.resolve("case-" + i + ".yaml"), c.bytes());
            Path out = dir.resolve("out-" + i + ".yaml");
            Outcome o = runWithTimeout(file, out);
            String what = "case " + i + " " + c.name() + ": ";
            if (o == null) {
                hangs++;
                failures.add(what + "hung");
            } else if (o.thrown() != null || (o.exit() != 0 && o.exit() != 2) || o.err().contains("Exception") || o.err().contains("\tat ")) {
                crashes++;
                failures.add(what + "crashed: exit " + o.exit() + " " + (o.thrown() != null ? o.thrown() : shorten(o.err())));
            } else if (o.exit() == 0) {
                accepted++;
                failures.add(what + "accepted");
            } else if (c.expect().stream().noneMatch(o.err()::contains)) {
                unnamed++;
                failures.add(what + "refused without naming " + c.expect() + ": " + shorten(o.err()));
            }
            if (o != null && o.allocated() > HEAP_BUDGET) {
                overBudget++;
                failures.add(what + "allocated " + (o.allocated() >> 20) + " MiB");
            }
            if (o != null && o.exit() == 2 && o.wrote()) {
                failures.add(what + "refused but wrote the configuration");
            }
            if (c.special() == null) {
                Files.deleteIfExists(file);
            }
            Files.deleteIfExists(out);
        }
        String summary = "bad-config-fuzz seed=" + seed + " cases=" + cases.size() + " crashes=" + crashes + " hangs=" + hangs
                + " accepted-but-invalid=" + accepted + " refused-without-field=" + unnamed + " over-heap-budget=" + overBudget;
        System.out.println(summary);
        assertThat(failures).as(summary).isEmpty();
    }

    private static Outcome runWithTimeout(Path file, Path out) throws InterruptedException {
        AtomicReference<Outcome> result = new AtomicReference<>();
        Thread t = Thread.ofPlatform().daemon().name("bad-config-case").start(() -> {
            long before = allocatedByThisThread();
            StringWriter err = new StringWriter();
            int exit = -1;
            Throwable thrown = null;
            try {
                CommandLine cl = Main.commandLine();
                cl.setOut(new PrintWriter(new StringWriter()));
                cl.setErr(new PrintWriter(err));
                exit = cl.execute("run", "--config", file.toString(), "--write-config-to", out.toString());
            } catch (Throwable e) {
                thrown = e;
            }
            result.set(new Outcome(exit, err.toString(), allocatedByThisThread() - before, thrown, Files.exists(out)));
        });
        t.join(TIMEOUT_MS);
        return result.get();
    }

    /** {@code com.sun.management.ThreadMXBean.getCurrentThreadAllocatedBytes()}, reflectively (the app module does not read jdk.management). */
    private static long allocatedByThisThread() {
        try {
            Object bean = Class.forName("java.lang.management.ManagementFactory").getMethod("getThreadMXBean").invoke(null);
            Method m = Class.forName("com.sun.management.ThreadMXBean").getMethod("getCurrentThreadAllocatedBytes");
            return (Long) m.invoke(bean);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String shorten(String s) {
        return s.length() > 300 ? s.substring(0, 300) + "..." : s;
    }

    // ---- the generator ------------------------------------------------------------------

    private static Case generate(Random r) {
        return switch (r.nextInt(11)) {
            case 0 -> wrongType(r);
            case 1 -> outOfRange(r);
            case 2 -> unknownEnum(r);
            case 3 -> unavailable(r);
            case 4 -> badDuration(r);
            case 5, 6 -> oversized(r);
            case 7 -> deep(r);
            case 8 -> alias(r);
            case 9 -> duplicate(r);
            default -> notUtf8(r);
        };
    }

    private static Case yaml(String name, String body, String... expect) {
        return new Case(name, (HEADER + body + "\n").getBytes(StandardCharsets.UTF_8), null, List.of(expect));
    }

    private static Case wrongType(Random r) {
        String[][] fields = {
            {"mode: 5", "mode"},
            {"iptables:\n  masqueradeBit: \"x\"", "iptables.masqueradeBit"},
            {"kproxy:\n  snapshotInterval: [1]", "kproxy.snapshotInterval"},
            {"conntrack:\n  min: true", "conntrack.min"},
            {"clientConnection:\n  qps: abc", "clientConnection.qps"},
            {"nodePortAddresses: 7", "nodePortAddresses"},
            {"featureGates: [a]", "featureGates"},
            {"kproxy:\n  fsyncWindow: 5", "kproxy.fsyncWindow"},
            {"hostnameOverride: {a: 1}", "hostnameOverride"},
            {"logging:\n  verbosity: -3", "logging.verbosity"},
            {"kproxy: [1, 2]", "kproxy"},
        };
        String[] f = fields[r.nextInt(fields.length)];
        return yaml("wrong type " + f[1], f[0], f[1]);
    }

    private static Case outOfRange(Random r) {
        long big = 32 + (long) (r.nextDouble() * Integer.MAX_VALUE);
        return switch (r.nextInt(7)) {
            case 0 -> yaml("masqueradeBit", "iptables:\n  masqueradeBit: " + (r.nextBoolean() ? big : -1 - r.nextInt(1000)), "iptables.masqueradeBit");
            case 1 -> yaml("oomScoreAdj", "oomScoreAdj: " + (r.nextBoolean() ? 1001 + r.nextInt(100_000) : -1001 - r.nextInt(100_000)), "oomScoreAdj");
            case 2 -> yaml("snapshotInterval", "kproxy:\n  snapshotInterval: " + (r.nextInt(100) - 50), "kproxy.snapshotInterval");
            case 3 -> yaml("retention.maxBytes", "kproxy:\n  retention:\n    maxBytes: " + -r.nextInt(1000), "kproxy.retention.maxBytes");
            case 4 -> yaml("conntrack.maxPerCore", "conntrack:\n  maxPerCore: " + (-1 - r.nextInt(1000)), "conntrack.maxPerCore");
            case 5 -> yaml("burst", "clientConnection:\n  burst: " + (-1 - r.nextInt(1000)), "clientConnection.burst");
            default -> yaml("int32 overflow", "iptables:\n  masqueradeBit: " + (1L << 33) + r.nextInt(1000), "iptables.masqueradeBit");
        };
    }

    private static Case unknownEnum(Random r) {
        String word = word(r, 1 + r.nextInt(10));
        String[][] fields = {
            {"mode: X", "mode"},
            {"detectLocalMode: X", "detectLocalMode"},
            {"logging:\n  format: X", "logging.format"},
            {"kproxy:\n  eventLog:\n    type: X", "kproxy.eventLog.type"},
        };
        String[] f = fields[r.nextInt(fields.length)];
        return yaml("unknown " + f[1], f[0].replace("X", "zz" + word), f[1]);
    }

    /** Kafka mode without the cluster identity its topic's records must carry (issue 18 defect 7 refused all of Kafka mode). */
    private static Case unavailable(Random r) {
        return yaml("eventLog kafka", "kproxy:\n  eventLog:\n    type: kafka\n    kafka:\n      bootstrapServers: kafka-" + r.nextInt(9)
                        + ":9092\n      topic: kproxy", "kproxy.eventLog.kafka.cluster: required");
    }

    private static Case badDuration(Random r) {
        return switch (r.nextInt(4)) {
            case 0 -> yaml("fsyncWindow long", "kproxy:\n  fsyncWindow: " + (1 + r.nextInt(1000)) + (r.nextBoolean() ? "h" : "s") + (1 + r.nextInt(9)) + "ms",
                    "kproxy.fsyncWindow");
            case 1 -> yaml("fsyncWindow negative", "kproxy:\n  fsyncWindow: -" + (1 + r.nextInt(1000)) + "ms", "kproxy.fsyncWindow");
            case 2 -> yaml("min above sync", "iptables:\n  syncPeriod: 1s\n  minSyncPeriod: " + (2 + r.nextInt(100)) + "s", "iptables.syncPeriod");
            default -> yaml("configSyncPeriod", "configSyncPeriod: -" + (1 + r.nextInt(100)) + "m", "configSyncPeriod");
        };
    }

    /** A string over its field's limit; sometimes over the string or file limit too (then that is what is named). */
    private static Case oversized(Random r) {
        String[][] fields = {  // field, minimal bad length, prefix
            {"hostnameOverride", "254", ""},
            {"clusterCIDR", "1", "x"},
            {"kproxy.journalDir", "4096", "/"},
            {"clientConnection.kubeconfig", "4096", "/"},
            {"clientConnection.contentType", "1025", ""},
            {"kproxy.adminSocket", "108", "/"},
            {"bindAddress", "1", "z"},
        };
        String[] f = fields[r.nextInt(fields.length)];
        int[] scale = {0, 100, 5_000, 70_000, 1_200_000, 2_200_000};
        int pick = r.nextInt(100);
        int extra = scale[pick < 40 ? 0 : pick < 70 ? 1 : pick < 85 ? 2 : pick < 95 ? 3 : pick < 98 ? 4 : 5];
        int length = Integer.parseInt(f[1]) + extra + r.nextInt(50);
        String value = f[2] + "a".repeat(length);
        String[] path = f[0].split("\\.");
        String body = path.length == 1 ? path[0] + ": " + value : path[0] + ":\n  " + path[1] + ": " + value;
        int total = HEADER.length() + body.length() + 1;
        String name = "oversized " + f[0] + " of " + value.length();
        if (total > 1 << 20) {
            return yaml(name, body, "larger than the limit of 1048576 bytes");
        }
        if (value.length() > 64 << 10) {
            return yaml(name, body, "more than the limit of 65536");
        }
        return yaml(name, body, f[0] + ":");
    }

    private static Case deep(Random r) {
        int depth = 33 + r.nextInt(3000);
        String body = "kproxy:\n  serviceCIDRs: " + "[".repeat(depth) + "]".repeat(depth);
        return yaml("nested " + depth, body, "nested more than");
    }

    private static Case alias(Random r) {
        String anchor = word(r, 1 + r.nextInt(6));
        return switch (r.nextInt(5)) {
            case 0 -> yaml("alias to a CIDR", "clusterCIDR: &" + anchor + " 10.0.0.0/8\nkproxy:\n  serviceCIDRs: [*" + anchor + "]", "YAML aliases");
            case 1 -> yaml("alias as hostname", "featureGates:\n  &" + anchor + " a: true\nhostnameOverride: *" + anchor, "YAML aliases");
            case 2 -> yaml("alias as journalDir", "clientConnection:\n  kubeconfig: &" + anchor + " /k\nkproxy:\n  journalDir: *" + anchor,
                    "YAML aliases");
            case 3 -> yaml("merge key", "iptables:\n  <<: {masqueradeBit: 14}", "YAML merge keys");
            default -> yaml("alias bomb", bomb(), "YAML aliases");
        };
    }

    private static String bomb() {
        StringBuilder sb = new StringBuilder("featureGates:\n  x0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
        for (int i = 1; i <= 9; i++) {
            sb.append("  x").append(i).append(": &a").append(i).append(" [");
            for (int j = 0; j < 9; j++) {
                sb.append(j == 0 ? "" : ", ").append("*a").append(i - 1);
            }
            sb.append("]\n");
        }
        return sb.toString();
    }

    private static Case duplicate(Random r) {
        return r.nextBoolean() ? yaml("duplicate mode", "mode: iptables\nmode: nftables", "Duplicate field 'mode'")
                : yaml("duplicate nested", "kproxy:\n  journalDir: /a\n  journalDir: /b", "Duplicate field 'journalDir'");
    }

    private static Case notUtf8(Random r) {
        byte[] head = (HEADER + "hostnameOverride: n").getBytes(StandardCharsets.UTF_8);
        byte[] bytes = new byte[head.length + 2];
        System.arraycopy(head, 0, bytes, 0, head.length);
        bytes[head.length] = (byte) (0x80 + r.nextInt(0x40));  // a continuation byte with no lead
        bytes[head.length + 1] = '\n';
        return new Case("not UTF-8", bytes, null, List.of("not UTF-8"));
    }

    private static List<Case> specialFiles(Path dir) throws Exception {
        Path fifo = dir.resolve("fifo.yaml");
        assertThat(new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start().waitFor()).isZero();
        Path directory = Files.createDirectories(dir.resolve("dir.yaml"));
        return List.of(new Case("directory", null, directory, List.of("not a regular file")),
                new Case("FIFO", null, fifo, List.of("not a regular file")),
                new Case("/dev/zero", null, Path.of("/dev/zero"), List.of("not a regular file")));
    }

    private static String word(Random r, int length) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < length; i++) {
            sb.append((char) ('a' + r.nextInt(26)));
        }
        return sb.toString();
    }
}

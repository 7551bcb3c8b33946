package io.kproxy.chaos;

import io.kproxy.netns.NetnsThread;
import io.kproxy.testkit.NftListing;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;

/**
 * The soak: the real agent under a seeded schedule of faults while traffic flows, with the
 * product's promises checked after every fault and at the end (chaos/README.md). Every wait is
 * bounded; the run ends by itself after {@code minutes} (plus the last fault's convergence) or
 * after {@link #MAX_FAULTS_PER_MINUTE} faults a minute, whichever comes first.
 */
final class ChaosRunner {

    /**
     * Convergence bound after a fault ends: a watch that stays closed is relisted by the source's
     * watchdog after its grace of 60 s (chaos/410-gone-relist.md), plus 30 s for the relist, the sync
     * and a loaded machine.
     */
    static final Duration CONVERGENCE_BOUND = Duration.ofSeconds(90);
    /** The agent must answer /healthz 200 this long after converging (twice the sync period, plus slack). */
    static final Duration HEALTHY_BOUND = Duration.ofSeconds(15);
    static final long MAX_RSS_KIB = 400 * 1024;
    static final int MAX_FDS = 300;
    static final int MAX_FAULTS_PER_MINUTE = 20;
    private static final int MAX_VIOLATIONS_KEPT = 200;

    private final long seed;
    private final double minutes;
    private final List<FaultKind> kinds;
    private final String mode;
    private final boolean inOrder;
    private final Random random;
    private final ChaosReport report;
    private final long start = System.nanoTime();
    private volatile String current = "start";
    private ChaosWorld world;
    private Agent agent;
    private Churn churn;

    /** @param mode the agent's {@code --proxy-mode}: {@code nftables} or {@code iptables} */
    ChaosRunner(long seed, double minutes, List<FaultKind> kinds, String mode) {
        this(seed, minutes, kinds, mode, false);
    }

    /**
     * @param inOrder the faults in the order of {@code kinds}, round and round, instead of drawn
     *                from the seed (a regression test that needs one fault right after another)
     */
    ChaosRunner(long seed, double minutes, List<FaultKind> kinds, String mode, boolean inOrder) {
        if (kinds.isEmpty() || minutes <= 0) {
            throw new IllegalArgumentException("a run needs fault kinds and a positive length");
        }
        if (mode.equals("iptables") && kinds.contains(FaultKind.KERNEL_REFUSAL)) {
            throw new IllegalArgumentException("KERNEL_REFUSAL takes an nftables table: nftables mode only");
        }
        this.mode = mode;
        this.inOrder = inOrder;
        this.seed = seed;
        this.minutes = minutes;
        this.kinds = List.copyOf(kinds);
        this.random = new Random(seed);
        this.report = new ChaosReport(seed);
    }

    /** Runs the soak and writes {@code report.txt} and {@code report.json} into {@code out}. */
    ChaosReport run(Path out) throws Exception {
        Files.createDirectories(out);
        try (var old = Files.list(out)) {
            for (Path p : old.toList()) {
                Files.deleteIfExists(p);
            }
        }
        Traffic traffic = null;
        Thread sampler = null;
        try (ChaosWorld w = ChaosWorld.create(out, mode)) {
            world = w;
            churn = new Churn(w.cluster, random);
            churn.seed();
            agent = w.startAgent();
            converge(null, System.nanoTime(), Duration.ofSeconds(120));
            traffic = new Traffic(w.topo.probe("pod3", 2_000), Churn.STABLE_IPS, Churn.CHURNED_IPS, seed,
                    (ip, o) -> violation("traffic", "connection to stable " + ip + ":80 " + o.kind()));
            traffic.start();
            sampler = Thread.ofPlatform().daemon().name("chaos-sampler").start(this::sample);
            // the faults' minutes count from here, after the start-up (on a loaded machine the world and the first
            // convergence once took longer than a short run's whole budget, and no fault was injected)
            long deadline = System.nanoTime() + (long) (minutes * 60e9);
            int maxFaults = (int) Math.ceil(minutes * MAX_FAULTS_PER_MINUTE);
            for (int n = 0; n < maxFaults && System.nanoTime() < deadline; n++) {
                current = "churn";
                churn.during(1_000 + random.nextInt(4_000));
                FaultKind kind = inOrder ? kinds.get(n % kinds.size()) : kinds.get(random.nextInt(kinds.size()));
                current = kind + "#" + n;
                log("fault=" + kind + " n=" + n);
                long ended = inject(kind);
                report.fault(kind, converge(kind, ended, CONVERGENCE_BOUND));
                w.proxy.releaseStalled();
            }
            current = "end";
            traffic.stop();
            sampler.interrupt();
            converge(null, System.nanoTime(), CONVERGENCE_BOUND);
            int exit = agent.terminate();
            if (exit != 0 && exit != 143) {
                violation("health", "SIGTERM ended the agent with exit " + exit);
            }
            verifyJournal();
            report.finish((System.nanoTime() - start) / 1_000_000, traffic, w.agentStarts(), churn.changes(), w.proxy.goneAnswers());
        } finally {
            if (traffic != null) {
                traffic.stop();
            }
            if (sampler != null) {
                sampler.interrupt();
            }
        }
        Files.writeString(out.resolve("report.txt"), report.text());
        Files.writeString(out.resolve("report.json"), report.json());
        return report;
    }

    /** Injects one fault (changes keep coming meanwhile) and returns the moment it ended. */
    private long inject(FaultKind kind) throws Exception {
        FaultProxy proxy = world.proxy;
        switch (kind) {
            case RESET -> {
                proxy.reset();
                churn.during(500 + random.nextInt(2_500));
            }
            case BLACK_HOLE -> {
                proxy.blackHole(true);
                churn.during(2_000 + random.nextInt(13_000));
                proxy.blackHole(false);
            }
            case STALL -> {
                proxy.stall();
                churn.during(3_000 + random.nextInt(17_000));
                proxy.releaseStalled();
            }
            case HALF_OPEN -> {
                // The stalled connections stay half-open until the agent has converged without
                // them: it has to notice by itself that its watches went silent.
                proxy.stall();
                churn.during(3_000 + random.nextInt(17_000));
            }
            case SLOW -> {
                proxy.slow(100 + random.nextInt(900));
                churn.during(3_000 + random.nextInt(7_000));
                proxy.slow(0);
            }
            case GONE_EVENT, GONE_HTTP -> {
                proxy.gone(kind == FaultKind.GONE_EVENT ? FaultProxy.Gone.ERROR_EVENT : FaultProxy.Gone.HTTP_410);
                proxy.reset();
                churn.during(3_000 + random.nextInt(5_000));
                proxy.gone(FaultProxy.Gone.NO);
            }
            case API_DOWN -> apiDown(8_000 + random.nextInt(12_000));
            case API_RESTART -> {
                proxy.down(true);
                world.cluster.stop();
                churn.during(2_000 + random.nextInt(4_000));
                proxy.retarget(world.cluster.start());
                proxy.down(false);
            }
            case KERNEL_REFUSAL -> kernelRefusal(5_000 + random.nextInt(10_000));
            case DISK_FULL -> diskFull(3_000 + random.nextInt(9_000));
            case CLOCK_STEP -> {
                // Forwards or back by 1 h to 30 days, never below the machine's own clock (offset >= 0).
                long step = 3_600 + random.nextLong(30L * 86_400);
                long previous = world.clockOffset();
                world.clockOffset(previous >= step && random.nextBoolean() ? previous - step : previous + step);
                log("clock_offset_s=" + world.clockOffset() + " previous_s=" + previous);
                kill9();
            }
            case KILL9 -> {
                kill9();
                if (random.nextInt(3) == 0) {
                    // Killed again while starting: mid-list or mid-first-sync.
                    Thread.sleep(500 + random.nextInt(3_500));
                    kill9();
                }
            }
        }
        return System.nanoTime();
    }

    /** The API server unreachable past the health timeout: /healthz turns 503, /livez stays 200. */
    private void apiDown(long millis) throws InterruptedException {
        world.proxy.down(true);
        NetnsThread node = world.topo.executor("node");
        long end = System.nanoTime() + millis * 1_000_000L;
        boolean saw503 = false;
        while (System.nanoTime() < end) {
            churn.step();
            saw503 |= NodeHttp.status(node, ChaosWorld.HEALTHZ_PORT, "/healthz") == 503;
            int livez = NodeHttp.status(node, ChaosWorld.HEALTHZ_PORT, "/livez");
            if (livez != 200) {
                violation("health", "/livez answered " + livez + " while only the API server was away");
            }
            Thread.sleep(400);
        }
        if (!saw503) {
            violation("health", "/healthz never answered 503 in " + millis + " ms without the API server (timeout 2 x " + ChaosWorld.SYNC_PERIOD + ")");
        }
        world.proxy.down(false);
    }

    /**
     * The kernel refuses the agent's transactions while another process owns its table
     * ({@link KernelRefusal}): the table must stay exactly as it was taken (a refused transaction
     * changes nothing), and /healthz must turn 503 when changes wait longer than twice the sync
     * period (a refusal of 8 s or more, with churn going on).
     */
    private void kernelRefusal(long millis) throws Exception {
        NetnsThread node = world.topo.executor("node");
        long end = System.nanoTime() + millis * 1_000_000L;
        boolean saw503 = false;
        try (KernelRefusal refusal = KernelRefusal.hold(world.topo.ns("node"), world.dir)) {
            String held = Rulesets.withoutOwner(NftListing.canonical(refusal.held()));
            while (System.nanoTime() < end) {
                churn.step();
                saw503 |= NodeHttp.status(node, ChaosWorld.HEALTHZ_PORT, "/healthz") == 503;
                String now = Rulesets.withoutOwner(world.rulesets.kernel());
                if (!now.equals(held)) {
                    violation("convergence", "the kernel's table changed while it refused every transaction: "
                            + Rulesets.firstDifference(now, held));
                    break;
                }
                Thread.sleep(400);
            }
        }
        if (millis >= 8_000 && !saw503) {
            violation("health", "/healthz never answered 503 while the kernel refused every sync for " + millis + " ms");
        }
    }

    /**
     * The journal's file system full for a while, then freed: the agent keeps its rules and
     * keeps running (appends are retried), and converges after.
     */
    private void diskFull(long millis) throws Exception {
        long filled = world.disk.fill();
        log("disk_full_bytes=" + filled);
        try {
            churn.during(millis);
            if (!agent.alive()) {
                violation("health", "the agent exited while its journal's disk was full; see " + agent.log());
            }
        } finally {
            world.disk.free();
        }
    }

    /** kill -9 amid changes, the journal verified while the agent is dead, then a new life. */
    private void kill9() throws Exception {
        long end = System.nanoTime() + (200 + random.nextInt(2_800)) * 1_000_000L;
        while (System.nanoTime() < end) {
            churn.step();
            Thread.sleep(50 + random.nextInt(150));
        }
        agent.kill9();
        verifyJournal();
        churn.during(random.nextInt(2_000));
        agent = world.startAgent();
    }

    private void verifyJournal() {
        Kproxy.Result r = Kproxy.run(120, "journal", "verify", world.journal().toString());
        if (r.exit() != 0) {
            violation("journal", "journal verify exit " + r.exit() + ": " + (r.stdout() + r.stderr()).strip());
        }
    }

    /**
     * Waits until the kernel's table equals the render of the cluster's objects, then checks that
     * the journal's render equals it too and that /healthz is 200. Returns the milliseconds from
     * {@code ended} to the first equal listing, or -1 after a violation.
     */
    private long converge(FaultKind kind, long ended, Duration bound) throws IOException, InterruptedException {
        String kernel;
        long since;
        try (KernelWatch watch = new KernelWatch(world.rulesets::kernel)) {
            String expected = world.renderObjects();
            long limit = ended + bound.toNanos();
            while ((since = watch.equalSince(expected)) < 0 && System.nanoTime() < limit) {
                if (!agent.alive()) {
                    violation("convergence", "the agent exited; see " + agent.log());
                    return -1;
                }
                Thread.sleep(KernelWatch.PERIOD_MILLIS);
            }
            kernel = watch.latest();
            if (since < 0) {
                violation("convergence", "kernel differs from render --objects " + bound.toSeconds() + " s after the fault: "
                        + Rulesets.firstDifference(kernel, expected));
                return -1;
            }
        }
        long took = Math.max(0, since - ended) / 1_000_000;
        // The SyncApplied record is appended just after the kernel accepted the transaction.
        String journal = "";
        String hashLine = "";
        for (int i = 0; i < 10 && !journal.equals(kernel); i++) {
            Kproxy.Result r = world.renderJournal();
            journal = r.exit() == 0 ? r.stdout() : "(render --journal exit " + r.exit() + ": " + r.stderr().strip() + ")";
            hashLine = r.stderr().strip();
            if (!journal.equals(kernel)) {
                Thread.sleep(500);
            }
        }
        if (!journal.equals(kernel)) {
            violation("convergence", "render --journal differs from the kernel: " + Rulesets.firstDifference(journal, kernel));
            return -1;
        }
        if (!hashLine.contains("equals the one the sync recorded")) {
            violation("journal", "render --journal's hash check: " + hashLine);
        }
        long healthyBy = System.nanoTime() + HEALTHY_BOUND.toNanos();
        int status = 0;
        while (System.nanoTime() < healthyBy && (status = NodeHttp.status(world.topo.executor("node"), ChaosWorld.HEALTHZ_PORT, "/healthz")) != 200) {
            Thread.sleep(250);
        }
        if (status != 200) {
            violation("health", "/healthz " + status + " " + HEALTHY_BOUND.toSeconds() + " s after converging");
        }
        log("converged fault=" + kind + " ms=" + took);
        return took;
    }

    /** Every 2 s: the agent's RSS and open descriptors, against their bounds. */
    private void sample() {
        boolean rssReported = false;
        boolean fdsReported = false;
        while (!Thread.currentThread().isInterrupted()) {
            Agent a = agent;
            long rss = a.rssKib();
            int fds = a.openFds();
            report.resources(rss, fds);
            if (rss > MAX_RSS_KIB && !rssReported) {
                rssReported = true;
                violation("resources", "RSS " + rss + " KiB > " + MAX_RSS_KIB);
            }
            if (fds > MAX_FDS && !fdsReported) {
                fdsReported = true;
                violation("resources", fds + " open fds > " + MAX_FDS);
            }
            try {
                Thread.sleep(2_000);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private void violation(String invariant, String detail) {
        Violation v = new Violation(seed, (System.nanoTime() - start) / 1_000_000, invariant, current, detail);
        log("VIOLATION " + v);
        if (report.violations().size() < MAX_VIOLATIONS_KEPT) {
            report.violation(v);
        }
    }

    private void log(String line) {
        System.out.printf("chaos seed=%d t=%dms %s%n", seed, (System.nanoTime() - start) / 1_000_000, line);
    }
}

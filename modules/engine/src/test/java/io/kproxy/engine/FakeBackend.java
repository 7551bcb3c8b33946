package io.kproxy.engine;

import io.kproxy.backend.Backend;
import io.kproxy.backend.ConntrackFilter;
import io.kproxy.backend.KernelException;
import io.kproxy.backend.Plan;
import io.kproxy.backend.Skipped;
import io.kproxy.backend.SyncOptions;
import io.kproxy.backend.Transaction;
import io.kproxy.events.SyncKind;
import io.kproxy.model.IpAddress;
import io.kproxy.model.IpFamily;
import io.kproxy.state.NodeState;
import io.kproxy.state.ServicePortState;
import io.kproxy.state.StateDelta;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.function.Function;

/**
 * A backend whose "ruleset" is one line per service port and its cluster endpoints: enough for
 * the engine's tests to see what was programmed, full or partial, and to fail on demand. Records
 * every transaction it was asked to apply. Not thread-safe (the engine calls it from one thread).
 */
final class FakeBackend implements Backend {

    record FakePlan(List<String> lines, Optional<Instant> nextDeferredWork) implements Plan {
        @Override
        public String mode() {
            return "fake";
        }

        @Override
        public String rulesetText() {
            return String.join("\n", lines);
        }

        /** The fake has no families: its one text is every family's. */
        @Override
        public String loadableText(IpFamily family) {
            return rulesetText();
        }

        @Override
        public String rulesetHash() {
            return sha256(rulesetText());
        }

        @Override
        public int servicePorts() {
            return lines.size();
        }
    }

    /** What apply was asked to do, and when (virtual time). */
    record Applied(SyncKind kind, String text, boolean succeeded) {
    }

    final List<Applied> applied = new ArrayList<>();
    final List<List<ConntrackFilter>> conntrack = new ArrayList<>();
    Function<Transaction, Optional<KernelException>> failure = tx -> Optional.empty();
    Optional<Instant> deferredWork = Optional.empty();
    /** What {@link #rulesIntact()} answers (or throws); {@link #probes} counts the calls. */
    Callable<Boolean> intact = () -> true;
    int probes;

    @Override
    public String mode() {
        return "fake";
    }

    /** How often each render was asked for. */
    int fullRenders;
    int incrementalRenders;

    /** The renders, diffs from the kernel and the notices before them, in order ({@code render}, {@code will-diff-from-kernel}, ...). */
    final List<String> calls = new ArrayList<>();

    @Override
    public void willDiffFromKernel() {
        calls.add("will-diff-from-kernel");
    }

    @Override
    public Plan render(NodeState state) {
        calls.add("render");
        fullRenders++;
        return renderLines(state);
    }

    private Plan renderLines(NodeState state) {
        TreeSet<String> lines = new TreeSet<>();
        for (IpFamily f : IpFamily.values()) {
            for (ServicePortState p : state.family(f).ports().values()) {
                lines.add(p.name() + " " + p.clusterIP() + ":" + p.port() + " -> "
                        + p.clusterEndpoints().stream().map(e -> e.hostPort()).toList());
            }
        }
        return new FakePlan(List.copyOf(lines), deferredWork);
    }

    @Override
    public Plan renderIncremental(Plan previous, NodeState state, StateDelta delta) {
        calls.add("render-incremental");
        incrementalRenders++;
        return renderLines(state);
    }

    /** What {@link #localAddresses()} answers. */
    Optional<List<IpAddress>> localAddresses = Optional.empty();
    /** What the next transaction reports as newly skipped (then nothing again). */
    List<Skipped> skipNext = List.of();

    @Override
    public Optional<List<IpAddress>> localAddresses() {
        return localAddresses;
    }

    @Override
    public Transaction diff(Optional<Plan> lastApplied, Plan desired, SyncOptions options) {
        List<Skipped> skips = skipNext;
        skipNext = List.of();
        return lines(lastApplied, desired, options).withSkipped(skips);
    }

    private Transaction lines(Optional<Plan> lastApplied, Plan desired, SyncOptions options) {
        FakePlan want = (FakePlan) desired;
        if (lastApplied.isEmpty() || options.forceFull()) {
            List<String> ops = new ArrayList<>(List.of("flush"));
            ops.addAll(want.lines());
            return new Transaction("fake", SyncKind.FULL, ops.size(), String.join("\n", ops), want);
        }
        FakePlan had = (FakePlan) lastApplied.get();
        List<String> ops = new ArrayList<>();
        // Deferred work that fell due is done by this transaction (as nftables deletes stale chains).
        had.nextDeferredWork().filter(w -> !w.isAfter(options.now())).ifPresent(w -> ops.add("deferred " + w));
        had.lines().stream().filter(l -> !want.lines().contains(l)).forEach(l -> ops.add("delete " + l));
        want.lines().stream().filter(l -> !had.lines().contains(l)).forEach(l -> ops.add("add " + l));
        return new Transaction("fake", SyncKind.PARTIAL, ops.size(), String.join("\n", ops), want);
    }

    /** What reading the kernel before a transaction from it answers: null to read fine, or the error to throw. */
    KernelException kernelReadFailure;
    /** How often the engine asked for a transaction from the kernel as it is. */
    int kernelReads;

    @Override
    public Transaction diffFromKernel(Plan desired, SyncOptions options) throws KernelException {
        calls.add("diff-from-kernel");
        kernelReads++;
        if (kernelReadFailure != null) {
            throw kernelReadFailure;
        }
        return diff(Optional.empty(), desired, options);
    }

    @Override
    public void apply(Transaction transaction) throws KernelException {
        Optional<KernelException> fail = failure.apply(transaction);
        applied.add(new Applied(transaction.kind(), transaction.text(), fail.isEmpty()));
        if (fail.isPresent()) {
            throw fail.get();
        }
    }

    @Override
    public void check(Transaction transaction) {
    }

    @Override
    public void cleanup() {
    }

    @Override
    public boolean rulesIntact() throws KernelException {
        probes++;
        try {
            return intact.call();
        } catch (KernelException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public List<ConntrackFilter> conntrackFilters(StateDelta delta, NodeState state) {
        return delta.conntrackCleanup().isEmpty() ? List.of()
                : List.of(new ConntrackFilter(IpFamily.IPV4, io.kproxy.model.Protocol.UDP, Optional.empty(), 53, java.util.Set.of()));
    }

    @Override
    public int cleanConntrack(List<ConntrackFilter> filters) {
        conntrack.add(filters);
        return 0;
    }

    @Override
    public void close() {
    }

    static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}

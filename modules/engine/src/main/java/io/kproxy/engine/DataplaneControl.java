package io.kproxy.engine;

import io.kproxy.events.DataplanePinned;
import io.kproxy.events.DataplaneUnpinned;
import io.kproxy.events.Envelope;
import io.kproxy.events.SyncApplied;
import io.kproxy.events.SyncFailed;
import io.kproxy.events.SyncKind;
import io.kproxy.journal.spi.EventLog;
import io.kproxy.state.FoldedState;
import io.kproxy.state.NodeState;
import io.kproxy.state.Pin;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rollback and resume of a running agent (docs/design.md, "Time travel and rollback"), behind the
 * local admin endpoint.
 *
 * <ul>
 *   <li><b>Pin</b> ({@code kproxy rollback}): the time is resolved to the offset of the state at
 *       that time ({@link LogTimes#lastAtOrBefore}); refused when it is before the log's first
 *       record, after the agent's clock, or when that state cannot be programmed (it had not
 *       synced, or retention removed what rebuilds it). Otherwise {@code DataplanePinned} is
 *       appended, and the answer waits for the full sync that programs the pinned state (its
 *       {@code SyncApplied} or {@code SyncFailed} in the journal). Pinning while pinned re-pins:
 *       the newer pin replaces the older one.</li>
 *   <li><b>Unpin</b> ({@code kproxy resume}): refused when not pinned; otherwise
 *       {@code DataplaneUnpinned} is appended and the answer waits for the sync that programs
 *       the live state again.</li>
 * </ul>
 *
 * <p>Both records are appended with source {@value #SOURCE}, so a rollback is itself audited.
 * Thread-safe: requests are served one at a time; {@link #pin} and {@link #unpin} block up to
 * their timeout, {@link #status} only on a small log read.
 */
public final class DataplaneControl {

    /** The {@code source} of the records the admin endpoint appends. */
    public static final String SOURCE = "admin";

    private static final Logger LOG = LoggerFactory.getLogger(DataplaneControl.class);
    /** Records may be stamped a little after the operator's clock read "now"; a time this far ahead is still "now". */
    private static final Duration CLOCK_SLACK = Duration.ofSeconds(1);

    /** Where a rollback goes: a time, or an offset (for tools that already resolved one). */
    public sealed interface To permits To.Time, To.Offset {

        /** The state at {@code at}: every record recorded at or before it. */
        record Time(Instant at) implements To {
            public Time {
                if (at == null) {
                    throw new IllegalArgumentException("at is required");
                }
            }
        }

        /** The state after the record at {@code offset}. */
        record Offset(long offset) implements To {
        }
    }

    private final EventLog log;
    private final DataplaneTargets targets;
    private final SyncWatch watch;
    private final Supplier<FoldedState> live;
    private final EngineClock clock;

    DataplaneControl(EventLog log, DataplaneTargets targets, SyncWatch watch, Supplier<FoldedState> live, EngineClock clock) {
        this.log = log;
        this.targets = targets;
        this.watch = watch;
        this.live = live;
        this.clock = clock;
    }

    /** Pins the dataplane to the state at {@code to}; waits up to {@code timeout} for it to be programmed. */
    public synchronized ControlAnswer pin(To to, String reason, Duration timeout) {
        long offset;
        String what;
        switch (to) {
            case To.Time t -> {
                Instant now = clock.now();
                if (t.at().isAfter(now.plus(CLOCK_SLACK))) {
                    return new ControlAnswer.Refused("in-future", "time " + t.at() + " is in the future (the agent's clock says " + now + ")");
                }
                OptionalLong o = LogTimes.lastAtOrBefore(log, t.at());
                if (o.isEmpty()) {
                    return new ControlAnswer.Refused("before-journal", "time " + t.at() + " is before the journal's first record"
                            + LogTimes.recordedAt(log, log.firstOffset()).map(f -> " (offset " + log.firstOffset() + ", recorded " + f + ")")
                                    .orElse(" (the journal is empty)"));
                }
                offset = o.getAsLong();
                what = "the state at " + t.at() + " (offset " + offset + ")";
            }
            case To.Offset o -> {
                offset = o.offset();
                long end = Math.min(log.nextOffset(), live.get().offset() + 1);
                if (offset < log.firstOffset() || offset >= end) {
                    return new ControlAnswer.Refused("bad-offset", "offset " + offset + " is not in the journal (it holds " + log.firstOffset()
                            + " to " + (end - 1) + ")");
                }
                what = "the state at offset " + offset;
            }
        }
        NodeState state;
        try {
            state = targets.stateAt(offset);
        } catch (DataplaneTargets.Unavailable e) {
            return new ControlAnswer.Refused("unavailable", e.getMessage());
        }
        if (!state.synced()) {
            return new ControlAnswer.Refused("not-synced", what + " had not synced yet (Services and EndpointSlices were not both "
                    + "listed), so it has no rules to program; choose a later time");
        }
        Optional<Pin> before = live.get().pin();
        long after = log.nextOffset() - 1;
        CompletableFuture<SyncWatch.Result> programmed = watch.await(after, syncOf(r -> r.uptoOffset() == offset && r.full()));
        long pinnedAt;
        try {
            pinnedAt = log.append(SOURCE, new DataplanePinned(offset, reason)).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            programmed.cancel(false);
            return new ControlAnswer.Failed("could not journal the pin: " + causeOf(e), status());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            programmed.cancel(false);
            return new ControlAnswer.Failed("interrupted while journaling the pin", status());
        }
        LOG.info("decision=pin-requested to_offset={} pinned_at={} replaces={} reason=\"{}\"", offset, pinnedAt,
                before.map(p -> Long.toString(p.toOffset())).orElse("none"), reason.replace('"', '\''));
        String verb = before.isPresent() ? "re-pinned (was pinned to offset " + before.get().toOffset() + ")" : "pinned";
        return answer(programmed, timeout, "dataplane " + verb + " to " + what + "; pin journaled at offset " + pinnedAt);
    }

    /** Returns to the live state; waits up to {@code timeout} for it to be programmed. */
    public synchronized ControlAnswer unpin(String reason, Duration timeout) {
        Optional<Pin> pin = live.get().pin();
        if (pin.isEmpty()) {
            return new ControlAnswer.Refused("not-pinned", "the dataplane is not pinned: it already programs the live state");
        }
        long after = log.nextOffset() - 1;
        // While pinned every sync reaches the pinned offset only, which is before `after`; the first
        // sync to reach past it programs the live state after the unpin was folded.
        CompletableFuture<SyncWatch.Result> programmed = watch.await(after, syncOf(r -> r.uptoOffset() > after));
        long unpinnedAt;
        try {
            unpinnedAt = log.append(SOURCE, new DataplaneUnpinned(reason)).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            programmed.cancel(false);
            return new ControlAnswer.Failed("could not journal the resume: " + causeOf(e), status());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            programmed.cancel(false);
            return new ControlAnswer.Failed("interrupted while journaling the resume", status());
        }
        LOG.info("decision=unpin-requested was_to_offset={} unpinned_at={} reason=\"{}\"", pin.get().toOffset(), unpinnedAt,
                reason.replace('"', '\''));
        return answer(programmed, timeout, "dataplane resumed live state (was pinned to offset " + pin.get().toOffset()
                + "); resume journaled at offset " + unpinnedAt);
    }

    /** What is programmed now. */
    public DataplaneStatus status() {
        FoldedState s = live.get();
        Optional<DataplaneStatus.PinView> pin = s.pin().map(p -> new DataplaneStatus.PinView(p.toOffset(), LogTimes.recordedAt(log,
                p.toOffset()), p.pinnedAt(), LogTimes.recordedAt(log, p.pinnedAt()), p.reason()));
        Optional<DataplaneStatus.SyncView> last = watch.last().map(r -> switch (r) {
            case SyncWatch.Result.Applied a -> new DataplaneStatus.SyncView(a.offset(), true, a.record().generation(),
                    a.record().uptoOffset(), a.record().kind().name(), a.record().rulesetHash());
            case SyncWatch.Result.Failed f -> new DataplaneStatus.SyncView(f.offset(), false, f.record().generation(),
                    f.record().uptoOffset(), f.record().kind().name(), f.record().error());
        });
        long first = log.firstOffset();
        return new DataplaneStatus(pin, s.offset(), first, LogTimes.recordedAt(log, first), last);
    }

    private ControlAnswer answer(CompletableFuture<SyncWatch.Result> programmed, Duration timeout, String done) {
        try {
            return switch (programmed.get(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                case SyncWatch.Result.Applied a -> new ControlAnswer.Done(done + "; programmed by sync generation " + a.record().generation()
                        + " (" + a.record().kind().name().toLowerCase(Locale.ROOT) + ", " + a.record().duration().toMillis() + " ms, ruleset "
                        + a.record().rulesetHash()
                        + ", journaled at offset " + a.offset() + ")", status());
                case SyncWatch.Result.Failed f -> new ControlAnswer.Failed(done + "; but programming it failed (sync generation "
                        + f.record().generation() + ", journaled at offset " + f.offset() + "): " + f.record().error()
                        + "; the agent keeps retrying", status());
            };
        } catch (TimeoutException e) {
            programmed.cancel(false);
            return new ControlAnswer.Failed(done + "; but no sync completed within " + timeout.toSeconds() + " s; the agent keeps trying "
                    + "(see kproxy status)", status());
        } catch (ExecutionException e) {
            return new ControlAnswer.Failed(done + "; but the engine stopped: " + causeOf(e), status());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            programmed.cancel(false);
            return new ControlAnswer.Failed(done + "; interrupted while waiting for the sync", status());
        }
    }

    /** The sync records (applied or failed) whose target satisfies {@code target}. */
    private static Predicate<Envelope> syncOf(Predicate<SyncTarget> target) {
        return e -> {
            if (e.event() instanceof SyncApplied a) {
                return target.test(new SyncTarget(a.uptoOffset(), a.kind() == SyncKind.FULL));
            }
            // A failed attempt at the target answers too, whatever its kind.
            return e.event() instanceof SyncFailed f && target.test(new SyncTarget(f.uptoOffset(), true));
        };
    }

    private record SyncTarget(long uptoOffset, boolean full) {
    }

    private static String causeOf(Throwable e) {
        Throwable c = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
        return c.getMessage() == null ? c.toString() : c.getMessage();
    }
}

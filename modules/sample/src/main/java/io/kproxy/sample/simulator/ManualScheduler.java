package io.kproxy.sample.simulator;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import reactor.core.Disposable;
import reactor.core.Exceptions;
import reactor.core.scheduler.Scheduler;

/**
 * A Reactor {@link Scheduler} on virtual time, so that the real engine can be run over an hour of
 * history in a second, deterministically: tasks due now run at once (on the thread that scheduled
 * them, or on the thread already draining), delayed tasks run when {@link #advanceTo} reaches their
 * time, in time order and, at equal times, in the order they were scheduled. Time only moves
 * forward, through {@link #advanceTo} or, from inside a running task, {@link #advanceBy} (work
 * that takes time, such as a simulated kernel apply).
 *
 * <p>Reactor's {@code VirtualTimeScheduler} does the same but lives in {@code reactor-test}, which
 * must not be a main-scope dependency; this one is the few parts the engine uses. Thread-safe: at
 * most one thread drains at a time (the others hand their tasks to it); {@link #advanceTo} blocks
 * (spinning) while another thread is draining tasks it must wait for.
 */
final class ManualScheduler implements Scheduler {

    private final Object lock = new Object();
    private final PriorityQueue<Task> queue = new PriorityQueue<>();
    private final AtomicInteger wip = new AtomicInteger();
    private long nowNanos;
    private long sequence;
    private volatile boolean disposed;

    ManualScheduler(Instant start) {
        this.nowNanos = epochNanos(start);
    }

    private static long epochNanos(Instant t) {
        return Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000_000L), t.getNano());
    }

    /** The virtual time now. */
    Instant instant() {
        synchronized (lock) {
            return Instant.ofEpochSecond(0, nowNanos);
        }
    }

    /** A {@link Clock} reading this scheduler's virtual time, in UTC. */
    Clock clock() {
        return new Clock() {
            @Override
            public ZoneId getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(ZoneId zone) {
                return this;
            }

            @Override
            public Instant instant() {
                return ManualScheduler.this.instant();
            }
        };
    }

    /**
     * Moves time to {@code target} (never backwards), running every task due on the way in time
     * order; returns once none is due and no other thread is still running one.
     */
    void advanceTo(Instant target) {
        long t = epochNanos(target);
        while (true) {
            boolean due;
            synchronized (lock) {
                Task head = queue.peek();
                due = head != null && head.at <= t;
                nowNanos = Math.max(nowNanos, due ? head.at : t);
            }
            if (due ? !drain() : wip.get() != 0) {
                Thread.onSpinWait();
            } else if (!due) {
                return;
            }
        }
    }

    /** Lets {@code d} pass while a task runs (the task "took" that long); due tasks run after it. */
    void advanceBy(Duration d) {
        synchronized (lock) {
            nowNanos += d.toNanos();
        }
    }

    @Override
    public long now(TimeUnit unit) {
        synchronized (lock) {
            return unit.convert(nowNanos, TimeUnit.NANOSECONDS);
        }
    }

    @Override
    public Disposable schedule(Runnable task) {
        return enqueue(task, 0, null);
    }

    @Override
    public Disposable schedule(Runnable task, long delay, TimeUnit unit) {
        return enqueue(task, unit.toNanos(delay), null);
    }

    @Override
    public Disposable schedulePeriodically(Runnable task, long initialDelay, long period, TimeUnit unit) {
        return periodic(task, initialDelay, period, unit, null);
    }

    /** Runs {@code task} after {@code initialDelay}, then every {@code period} after each run started, until disposed. */
    private Disposable periodic(Runnable task, long initialDelay, long period, TimeUnit unit, ManualWorker owner) {
        if (period <= 0) {
            throw Exceptions.failWithRejected("a period must be positive on manual time");
        }
        Periodic p = new Periodic();
        Runnable[] step = new Runnable[1];
        step[0] = () -> {
            if (p.cancelled) {
                return;
            }
            p.current = enqueue(step[0], unit.toNanos(period), owner);
            task.run();
        };
        p.current = enqueue(step[0], unit.toNanos(initialDelay), owner);
        return p;
    }

    /** A periodic task: the chain of its next runs, cancelled as a whole. */
    private static final class Periodic implements Disposable {
        volatile boolean cancelled;
        volatile Disposable current;

        @Override
        public void dispose() {
            cancelled = true;
            Disposable c = current;
            if (c != null) {
                c.dispose();
            }
        }

        @Override
        public boolean isDisposed() {
            return cancelled;
        }
    }

    @Override
    public Worker createWorker() {
        return new ManualWorker();
    }

    @Override
    public void dispose() {
        disposed = true;
        synchronized (lock) {
            queue.clear();
        }
    }

    @Override
    public boolean isDisposed() {
        return disposed;
    }

    @Override
    public void init() {
    }

    private Task enqueue(Runnable task, long delayNanos, ManualWorker owner) {
        if (disposed || owner != null && owner.disposed) {
            throw Exceptions.failWithRejected();
        }
        Task t;
        synchronized (lock) {
            t = new Task(task, nowNanos + Math.max(0, delayNanos), sequence++, owner);
            queue.add(t);
        }
        if (owner != null) {
            owner.track(t);
        }
        drain();
        return t;
    }

    /** Runs every task due now; false when another thread is draining (it runs them instead). */
    private boolean drain() {
        if (wip.getAndIncrement() != 0) {
            return false;
        }
        int missed = 1;
        do {
            while (true) {
                Task next;
                synchronized (lock) {
                    Task head = queue.peek();
                    if (head == null || head.at > nowNanos) {
                        break;
                    }
                    next = queue.poll();
                }
                next.runOnce();
            }
            missed = wip.addAndGet(-missed);
        } while (missed != 0);
        return true;
    }

    private static final class Task implements Disposable, Comparable<Task> {
        final Runnable body;
        final long at;
        final long seq;
        final ManualWorker owner;
        volatile boolean cancelled;

        Task(Runnable body, long at, long seq, ManualWorker owner) {
            this.body = body;
            this.at = at;
            this.seq = seq;
            this.owner = owner;
        }

        void runOnce() {
            boolean run = !cancelled;
            cancelled = true;
            if (owner != null) {
                owner.untrack(this);
            }
            if (run) {
                body.run();
            }
        }

        @Override
        public int compareTo(Task o) {
            int c = Long.compare(at, o.at);
            return c != 0 ? c : Long.compare(seq, o.seq);
        }

        @Override
        public void dispose() {
            cancelled = true;
        }

        @Override
        public boolean isDisposed() {
            return cancelled;
        }
    }

    private final class ManualWorker implements Worker {
        private final List<Task> pending = new ArrayList<>();
        private volatile boolean disposed;

        @Override
        public Disposable schedule(Runnable task) {
            return enqueue(task, 0, this);
        }

        @Override
        public Disposable schedule(Runnable task, long delay, TimeUnit unit) {
            return enqueue(task, unit.toNanos(delay), this);
        }

        @Override
        public Disposable schedulePeriodically(Runnable task, long initialDelay, long period, TimeUnit unit) {
            return periodic(task, initialDelay, period, unit, this);
        }

        synchronized void track(Task t) {
            if (!t.cancelled) {
                pending.add(t);
            }
        }

        synchronized void untrack(Task t) {
            pending.remove(t);
        }

        @Override
        public void dispose() {
            disposed = true;
            List<Task> copy;
            synchronized (this) {
                copy = List.copyOf(pending);
                pending.clear();
            }
            copy.forEach(Task::dispose);
        }

        @Override
        public boolean isDisposed() {
            return disposed;
        }
    }
}

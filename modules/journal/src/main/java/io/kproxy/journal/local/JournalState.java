package io.kproxy.journal.local;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The journal's current {@link View}, and the lock under which the writer (commits, rolls) and
 * retention replace it. Readers only read the volatile view and never lock. Also keeps the
 * segments retention removed, whose read channels are closed one retention pass later (a reader
 * that took an older view may still be reading them). Thread-safe.
 */
public final class JournalState {

    private final ReentrantLock mutate = new ReentrantLock();
    private volatile View view;
    private List<Segment> retired = new ArrayList<>();

    JournalState(View initial) {
        this.view = initial;
    }

    public View view() {
        return view;
    }

    void publishLast(SegmentRef last, long nextOffset) {
        mutate.lock();
        try {
            view = view.withLast(last, nextOffset);
        } finally {
            mutate.unlock();
        }
    }

    void publishRoll(SegmentRef sealed, SegmentRef active) {
        mutate.lock();
        try {
            view = view.withAppended(sealed, active);
        } finally {
            mutate.unlock();
        }
    }

    ReentrantLock lock() {
        return mutate;
    }

    /** Replaces the view; the caller holds {@link #lock()}. */
    void replace(View v) {
        if (!mutate.isHeldByCurrentThread()) {
            throw new IllegalStateException("the view is replaced under its lock");
        }
        view = v;
    }

    /** Hands over segments just removed; returns those removed by the previous pass, now safe to close. */
    List<Segment> retire(List<Segment> removed) {
        mutate.lock();
        try {
            List<Segment> old = retired;
            retired = new ArrayList<>(removed);
            return old;
        } finally {
            mutate.unlock();
        }
    }

    /** Closes every read channel (the journal is closing). */
    public void closeAll() {
        mutate.lock();
        try {
            for (int i = 0; i < view.size(); i++) {
                view.get(i).segment().close();
            }
            retired.forEach(Segment::close);
            retired = new ArrayList<>();
        } finally {
            mutate.unlock();
        }
    }
}

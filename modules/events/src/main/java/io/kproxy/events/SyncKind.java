package io.kproxy.events;

/** Whether a sync rewrote everything the backend owns or only what changed. The order is part of the record format. */
public enum SyncKind {
    FULL,
    PARTIAL
}

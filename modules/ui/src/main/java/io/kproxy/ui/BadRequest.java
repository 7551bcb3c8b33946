package io.kproxy.ui;

/** A request the API refuses with 400 and this reason (one line, safe to show). */
final class BadRequest extends RuntimeException {

    BadRequest(String reason) {
        super(reason, null, false, false);
    }
}

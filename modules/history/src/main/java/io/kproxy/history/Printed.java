package io.kproxy.history;

import io.kproxy.model.Printable;

/**
 * How this module's reports print a value that comes from a record or an object (a
 * resourceVersion, a sync's error, a pin's reason, a backend or mode name, a hash): every such
 * value goes through here, once, where it is concatenated. The reports are line-oriented twice
 * over: {@code render --explain} is a ruleset whose annotations are {@code #} comment lines, and
 * {@code diff}, {@code audit} and {@code journal inspect} are terminal text; a value that ended a
 * line there would add a line of its own (issue 18: a resourceVersion holding
 * <code>"\n}\ntable inet x &#123;...&#125;"</code> added a chain to {@code --explain} output that {@code nft -f}
 * loaded). Pure and thread-safe.
 */
final class Printed {

    private Printed() {
    }

    /**
     * {@code value} for one line of terminal text: escaped by {@link Printable#escape}, so it has
     * no line terminator, no control character (ESC included) and no format character.
     */
    static String text(String value) {
        return Printable.escape(value);
    }

    /**
     * {@code value} inside a {@code #} comment line of a ruleset. A comment there ends only at the
     * end of the line ({@code nft}'s scanner, {@code iptables-restore}'s line reader), so a quote,
     * a {@code ;}, a brace or another {@code #} inside it is inert; what must never be in it is a
     * line terminator, and {@link #text} leaves none (nor a carriage return or U+2028, which some
     * readers also split on). Same escaping as {@link #text}, named for where it is used.
     */
    static String comment(String value) {
        return text(value);
    }
}

package io.kproxy.testkit.netns;

/**
 * What one probe saw: a reply (the server's name and the source address it saw), a rejection
 * (TCP refused or ICMP port unreachable), silence (dropped), or no route.
 */
public record Outcome(Kind kind, String server, String seenSource) {

    public enum Kind {
        REPLY,
        REJECTED,
        DROPPED,
        UNREACHABLE
    }

    public static Outcome reply(String text) {
        String[] parts = text.strip().split(" ", 2);
        return new Outcome(Kind.REPLY, parts[0], parts.length > 1 ? parts[1] : "");
    }

    public static Outcome of(Kind kind) {
        return new Outcome(kind, "", "");
    }

    @Override
    public String toString() {
        return kind == Kind.REPLY ? server + " saw " + seenSource : kind.name();
    }
}

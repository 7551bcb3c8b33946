package io.kproxy.model;

/** The transport protocols a Service port can use. */
public enum Protocol {
    TCP,
    UDP,
    SCTP;

    /** The API spelling: {@code TCP}, {@code UDP}, {@code SCTP}. */
    public String apiName() {
        return name();
    }

    /** Lower case, as kube-proxy writes it into chain-name hashes and rules: {@code tcp}. */
    public String lowerName() {
        return switch (this) {
            case TCP -> "tcp";
            case UDP -> "udp";
            case SCTP -> "sctp";
        };
    }

    /** Parses the API spelling (upper case); anything else is refused with the field named. */
    public static Protocol parse(String field, String text) {
        return switch (text) {
            case "TCP" -> TCP;
            case "UDP" -> UDP;
            case "SCTP" -> SCTP;
            default -> throw new InvalidValueException(field, text, "expected TCP, UDP or SCTP");
        };
    }
}

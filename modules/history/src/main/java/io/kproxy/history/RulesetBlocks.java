package io.kproxy.history;

import io.kproxy.model.InvalidValueException;
import io.kproxy.model.ServiceRef;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Splits a rendered ruleset into the lines of each Service and the node-wide rest, by the names
 * and comments the backends give their objects (byte-compatible with upstream kube-proxy):
 *
 * <ul>
 *   <li>nftables ({@code pkg/proxy/nftables/proxier.go}): a line naming a
 *       {@code service-/external-/endpoint-/firewall-/affinity-<HASH>-ns/name/...} object, or
 *       carrying {@code comment "ns/name:port"}, belongs to that Service; so does every line of
 *       a block opened by kproxy's {@code # ns/name:port proto} comment (the map elements with
 *       no name in them, such as {@code cluster-ips}).</li>
 *   <li>iptables ({@code pkg/proxy/iptables/proxier.go}): a rule whose {@code --comment} names
 *       {@code ns/name:port} belongs to that Service, and so do the {@code KUBE-SVC-/SVL-/EXT-/FW-/SEP-}
 *       chains such rules are in (their declarations and uncommented rules too); each line
 *       keeps its section ({@code IPv4 nat}), since the same rule text can sit in two tables.</li>
 * </ul>
 *
 * The nftables generation marker ({@code add set … kproxy-ruleset-<hash>}, docs/backends/nftables.md,
 * "Restart") is a {@link Kind#MARKER}, not a rule: it names the hash of the other lines, so it
 * changes whenever any of them does, and a diff that counted it would show a node-wide change
 * caused by whichever record came first.
 *
 * Pure; the output follows the input's line order.
 */
final class RulesetBlocks {

    /** What a line is: a rule (or table, chain, set declaration), the generation marker, a comment, or blank. */
    enum Kind { RULE, MARKER, COMMENT, BLANK }

    /**
     * One line of a ruleset.
     *
     * @param section the family ({@code ip}, {@code ip6}) for nftables; family and table ({@code IPv4 nat}) for iptables
     * @param owner   the Service the line belongs to; empty for node-wide lines
     */
    record Line(Kind kind, String section, Optional<ServiceRef> owner, String text) {
    }

    private static final String LABEL = "[a-z0-9](?:[-a-z0-9]*[a-z0-9])?";
    private static final Pattern SERVICE_IN_TEXT = Pattern.compile("(?<![-a-z0-9./])(" + LABEL + ")/(" + LABEL + ")(?::" + LABEL + ")?(?![-a-z0-9/])");
    private static final Pattern NFT_OBJECT = Pattern.compile("(?:service|external|endpoint|firewall|affinity)-[A-Z0-9]{8}-(" + LABEL + ")/("
            + LABEL + ")/");
    private static final Pattern NFT_COMMENT = Pattern.compile("comment \"([^\"]*)\"");
    private static final String NFT_MARKER_PREFIX = "kproxy-ruleset-";
    private static final Pattern NFT_TABLE = Pattern.compile("^add table (\\S+) ");
    private static final Pattern IPT_COMMENT = Pattern.compile("--comment (?:\"([^\"]*)\"|(\\S+))");
    private static final Pattern IPT_CHAIN = Pattern.compile("KUBE-(SVC|SVL|EXT|FW|SEP)-([A-Z0-9]+)");
    private static final Pattern IPT_JUMP = Pattern.compile(" -[jg] (\\S+)");

    private RulesetBlocks() {
    }

    /** Whether the mode's rule lines need their section shown to be unambiguous (iptables). */
    static boolean showsSection(String mode) {
        return mode.equals("iptables");
    }

    static List<Line> parse(String mode, String text) {
        List<String> lines = text.lines().toList();
        return showsSection(mode) ? iptables(lines) : nftables(lines);
    }

    private static List<Line> nftables(List<String> lines) {
        List<Line> out = new ArrayList<>(lines.size());
        String family = "";
        Optional<ServiceRef> block = Optional.empty();
        for (String l : lines) {
            if (l.isBlank()) {
                block = Optional.empty();
                out.add(new Line(Kind.BLANK, family, Optional.empty(), l));
                continue;
            }
            if (l.startsWith("#")) {
                String body = l.substring(1).strip();
                int space = body.indexOf(' ');
                block = service(space < 0 ? body : body.substring(0, space));
                out.add(new Line(Kind.COMMENT, family, block, l));
                continue;
            }
            if (l.startsWith("add set ") && l.contains(" " + NFT_MARKER_PREFIX)) {
                out.add(new Line(Kind.MARKER, family, Optional.empty(), l));
                continue;
            }
            Matcher table = NFT_TABLE.matcher(l);
            if (table.find()) {
                family = table.group(1);
            }
            Optional<ServiceRef> owner = first(NFT_OBJECT.matcher(l));
            if (owner.isEmpty()) {
                Matcher c = NFT_COMMENT.matcher(l);
                while (owner.isEmpty() && c.find()) {
                    owner = first(SERVICE_IN_TEXT.matcher(c.group(1)));
                }
            }
            out.add(new Line(Kind.RULE, family, owner.isPresent() ? owner : block, l));
        }
        return out;
    }

    private static List<Line> iptables(List<String> lines) {
        Map<String, ServiceRef> chains = new HashMap<>();
        Map<String, ServiceRef> hashes = new HashMap<>();
        for (String l : lines) {
            if (!l.startsWith("-A ")) {
                continue;
            }
            String chain = l.substring(3, l.indexOf(' ', 3) < 0 ? l.length() : l.indexOf(' ', 3));
            Optional<ServiceRef> svc = iptComment(l);
            Matcher m = IPT_CHAIN.matcher(chain);
            if (svc.isPresent() && m.matches()) {
                chains.putIfAbsent(chain, svc.get());
                if (!m.group(1).equals("SEP")) {
                    hashes.putIfAbsent(m.group(2), svc.get());
                }
            }
        }
        List<Line> out = new ArrayList<>(lines.size());
        String family = "";
        String table = "";
        for (String l : lines) {
            if (l.isBlank()) {
                out.add(new Line(Kind.BLANK, family + table, Optional.empty(), l));
                continue;
            }
            if (l.startsWith("#")) {
                family = l.substring(1).strip();
                table = "";
                out.add(new Line(Kind.COMMENT, family, Optional.empty(), l));
                continue;
            }
            if (l.startsWith("*")) {
                table = " " + l.substring(1).strip();
            }
            String section = family + table;
            Optional<ServiceRef> owner = Optional.empty();
            if (l.startsWith(":")) {
                int space = l.indexOf(' ');
                owner = chainOwner(space < 0 ? l.substring(1) : l.substring(1, space), chains, hashes);
            } else if (l.startsWith("-A ")) {
                owner = iptComment(l);
                int space = l.indexOf(' ', 3);
                if (owner.isEmpty()) {
                    owner = chainOwner(l.substring(3, space < 0 ? l.length() : space), chains, hashes);
                }
                Matcher jump = IPT_JUMP.matcher(l);
                if (owner.isEmpty() && jump.find()) {
                    owner = chainOwner(jump.group(1), chains, hashes);
                }
            }
            out.add(new Line(Kind.RULE, section, owner, l));
        }
        return out;
    }

    private static Optional<ServiceRef> chainOwner(String chain, Map<String, ServiceRef> chains, Map<String, ServiceRef> hashes) {
        ServiceRef s = chains.get(chain);
        if (s != null) {
            return Optional.of(s);
        }
        Matcher m = IPT_CHAIN.matcher(chain);
        return m.matches() && !m.group(1).equals("SEP") ? Optional.ofNullable(hashes.get(m.group(2))) : Optional.empty();
    }

    private static Optional<ServiceRef> iptComment(String line) {
        Matcher c = IPT_COMMENT.matcher(line);
        while (c.find()) {
            Optional<ServiceRef> s = first(SERVICE_IN_TEXT.matcher(c.group(1) != null ? c.group(1) : c.group(2)));
            if (s.isPresent()) {
                return s;
            }
        }
        return Optional.empty();
    }

    private static Optional<ServiceRef> first(Matcher m) {
        while (m.find()) {
            Optional<ServiceRef> s = ref(m.group(1), m.group(2));
            if (s.isPresent()) {
                return s;
            }
        }
        return Optional.empty();
    }

    private static Optional<ServiceRef> service(String token) {
        Matcher m = SERVICE_IN_TEXT.matcher(token);
        return m.matches() ? ref(m.group(1), m.group(2)) : Optional.empty();
    }

    private static Optional<ServiceRef> ref(String namespace, String name) {
        try {
            return Optional.of(new ServiceRef(namespace, name));
        } catch (InvalidValueException e) {
            return Optional.empty();
        }
    }
}

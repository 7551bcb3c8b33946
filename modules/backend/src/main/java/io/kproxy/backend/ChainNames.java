package io.kproxy.backend;

import io.kproxy.model.IpAddress;
import io.kproxy.model.Port;
import io.kproxy.model.ServicePortName;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * Upstream's kernel object names, byte for byte, so that operators' knowledge and upstream dumps
 * carry over (docs/upstream-behaviour.md §2). Pure and thread-safe.
 *
 * <ul>
 *   <li>nftables ({@code pkg/proxy/nftables/proxier.go}, {@code hashAndTruncate}):
 *       {@code b32(sha256(name))[:8] + "-" + name}, truncated to 240 characters with
 *       {@code ...}; {@code name} is {@code ns/svc/proto/portName} for a service port and
 *       {@code ns/svc/proto/portName__ip/port} for an endpoint (IPv6 colons as dots).</li>
 *   <li>iptables ({@code pkg/proxy/iptables/proxier.go}, {@code portProtoHash}):
 *       {@code b32(sha256(SPN.String() + proto))[:16]}, endpoints add {@code ip:port}.</li>
 * </ul>
 */
public final class ChainNames {

    /** nftables' longest name ({@code knftables.NameLengthMax}) minus the longest prefix (16). */
    public static final int NFT_BASE_MAX = 256 - 16;

    private ChainNames() {
    }

    /** RFC 4648 base32 (upper case, padded) of SHA-256 of {@code text}. */
    public static String base32Sha256(String text) {
        byte[] digest;
        try {
            digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK always has SHA-256", e);
        }
        return base32(digest);
    }

    /** nftables' {@code hashAndTruncate}. */
    public static String nftHashAndTruncate(String name) {
        String out = base32Sha256(name).substring(0, 8) + "-" + name;
        if (out.length() > NFT_BASE_MAX) {
            out = out.substring(0, NFT_BASE_MAX - 3) + "...";
        }
        return out;
    }

    /** nftables' {@code servicePortChainNameBase}: {@code HASH-ns/svc/proto/portName}. */
    public static String nftServicePortBase(ServicePortName spn) {
        return nftHashAndTruncate(nftServicePortName(spn));
    }

    /** nftables' {@code servicePortEndpointChainNameBase}: {@code HASH-ns/svc/proto/portName__ip/port}. */
    public static String nftEndpointBase(ServicePortName spn, IpAddress ip, Port port) {
        String host = ip.toString().replace(':', '.');
        return nftHashAndTruncate(nftServicePortName(spn) + "__" + host + "/" + port);
    }

    private static String nftServicePortName(ServicePortName spn) {
        return spn.service().namespace() + "/" + spn.service().name() + "/" + spn.protocol().lowerName() + "/" + spn.portName();
    }

    /** iptables' {@code portProtoHash}: the 16-character hash of {@code KUBE-SVC-}/{@code KUBE-SVL-}/... chains. */
    public static String iptablesServicePortHash(ServicePortName spn) {
        return base32Sha256(spn + spn.protocol().lowerName()).substring(0, 16);
    }

    /** iptables' {@code servicePortEndpointChainName}: {@code KUBE-SEP-} + hash of SPN, protocol and {@code ip:port}. */
    public static String iptablesEndpointChain(ServicePortName spn, String hostPort) {
        return "KUBE-SEP-" + base32Sha256(spn + spn.protocol().lowerName() + hostPort).substring(0, 16);
    }

    private static final char[] ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".toCharArray();

    private static String base32(byte[] data) {
        StringBuilder sb = new StringBuilder((data.length + 4) / 5 * 8);
        int buffer = 0;
        int bits = 0;
        for (byte b : data) {
            buffer = (buffer << 8) | (b & 0xFF);
            bits += 8;
            while (bits >= 5) {
                sb.append(ALPHABET[(buffer >>> (bits - 5)) & 31]);
                bits -= 5;
            }
        }
        if (bits > 0) {
            sb.append(ALPHABET[(buffer << (5 - bits)) & 31]);
        }
        while (sb.length() % 8 != 0) {
            sb.append('=');
        }
        return sb.toString();
    }
}

package io.kproxy.netlink;

/**
 * One nf_tables expression of a rule, as the kernel takes it ({@code include/uapi/linux/netfilter/nf_tables.h},
 * {@code NFTA_<NAME>_*} attributes of {@code net/netfilter/nft_<name>.c}). Registers are the
 * kernel's numbers: {@link #VERDICT}, the 16-byte {@link #REG_1}..4, or the 4-byte
 * {@code REG32_00 + n} ({@link #reg32}). Byte-array components are not copied; callers hand
 * over fresh arrays. Immutable once built; {@link NfEncoding} writes them.
 */
public sealed interface NfExpr {

    int VERDICT = 0;
    int REG_1 = 1;
    int REG32_00 = 8;

    /** The register holding 4-byte word {@code n} of the register file, as nft names it: 16-byte registers where aligned. */
    static int reg32(int n) {
        if (n < 0 || n > 15) {
            throw new IllegalArgumentException("no 32-bit register " + n);
        }
        return n % 4 == 0 ? REG_1 + n / 4 : REG32_00 + n;
    }

    /** The expression's kernel name ({@code payload}, {@code cmp}, ...). */
    String name();

    /** Loads {@code len} bytes at {@code offset} of header {@code base} (0 link, 1 network, 2 transport). */
    record Payload(int dreg, int base, int offset, int len) implements NfExpr {
        public static final int NETWORK = 1;
        public static final int TRANSPORT = 2;

        public String name() {
            return "payload";
        }
    }

    /** Loads meta key {@code key} ({@code NFT_META_*}: 3 mark, 6 iifname, 16 l4proto). */
    record Meta(int key, int dreg) implements NfExpr {
        public static final int MARK = 3;
        public static final int IIFNAME = 6;
        public static final int L4PROTO = 16;

        public String name() {
            return "meta";
        }
    }

    /** Sets meta key {@code key} from a register ({@code meta mark set ...}). */
    record MetaSet(int key, int sreg) implements NfExpr {
        public String name() {
            return "meta";
        }
    }

    /** Compares a register with {@code data}: op 0 eq, 1 neq ({@code NFT_CMP_*}). */
    record Cmp(int sreg, int op, byte[] data) implements NfExpr {
        public static final int EQ = 0;
        public static final int NEQ = 1;

        public String name() {
            return "cmp";
        }
    }

    /** {@code dreg = (sreg & mask) ^ xor} over {@code mask.length} bytes. */
    record Bitwise(int sreg, int dreg, byte[] mask, byte[] xor) implements NfExpr {
        public Bitwise {
            if (mask.length != xor.length) {
                throw new IllegalArgumentException("mask and xor differ in length");
            }
        }

        public String name() {
            return "bitwise";
        }
    }

    /**
     * Looks the key in {@code sreg} up in a set: a match test, or a map lookup into
     * {@code dreg} ({@code dreg < 0}: none; {@link #VERDICT} for a verdict map). {@code setId}
     * (0: none) names a set created in the same batch.
     */
    record Lookup(String set, int setId, int sreg, int dreg, boolean inverted) implements NfExpr {
        public String name() {
            return "lookup";
        }
    }

    /** Sets the verdict: accept, drop, return, or jump/goto {@code chain}. */
    record Verdict(NfVerdict verdict) implements NfExpr {
        public String name() {
            return "immediate";
        }
    }

    /** Loads constant {@code value} into {@code dreg}. */
    record Immediate(int dreg, byte[] value) implements NfExpr {
        public String name() {
            return "immediate";
        }
    }

    /** {@code numgen random mod modulus} (type 1 random) into {@code dreg}, host byte order. */
    record Numgen(int dreg, int modulus, int type, int offset) implements NfExpr {
        public static final int RANDOM = 1;

        public String name() {
            return "numgen";
        }
    }

    /** Byte order conversion: op 0 ntoh, 1 hton, of {@code len} bytes in units of {@code size}. */
    record Byteorder(int sreg, int dreg, int op, int len, int size) implements NfExpr {
        public static final int HTON = 1;

        public String name() {
            return "byteorder";
        }
    }

    /**
     * NAT ({@code type} 1 dnat) to the address in {@code regAddr} and, when {@code regProto > 0},
     * the port in {@code regProto}; {@code flags} are {@code NF_NAT_RANGE_*} (0: none).
     */
    record Nat(int type, int family, int regAddr, int regProto, int flags) implements NfExpr {
        public static final int DNAT = 1;
        public static final int PROTO_SPECIFIED = 2;

        public String name() {
            return "nat";
        }
    }

    /** Masquerade with {@code NF_NAT_RANGE_*} flags (0x10 fully random). */
    record Masq(int flags) implements NfExpr {
        public static final int FULLY_RANDOM = 0x10;

        public String name() {
            return "masq";
        }
    }

    /** A fib lookup: result 3 address type, flags 1 saddr / 2 daddr. */
    record Fib(int result, int flags, int dreg) implements NfExpr {
        public static final int ADDRTYPE = 3;
        public static final int SADDR = 1;
        public static final int DADDR = 2;

        public String name() {
            return "fib";
        }
    }

    /** Loads conntrack key {@code key} (0 state, 2 status). */
    record Ct(int key, int dreg) implements NfExpr {
        public static final int STATE = 0;
        public static final int STATUS = 2;

        public String name() {
            return "ct";
        }
    }

    /** Adds or updates ({@code op} 1) the key in {@code sregKey} in a dynamic set. */
    record Dynset(String set, int setId, int op, int sregKey) implements NfExpr {
        public static final int UPDATE = 1;

        public String name() {
            return "dynset";
        }
    }

    /** Reject with ICMP(v6) type 0 unreachable and {@code code}. */
    record Reject(int type, int code) implements NfExpr {
        public String name() {
            return "reject";
        }
    }
}

package io.kproxy.netlink;

/** One change to the kernel's ipsets, as {@link IpsetClient#apply} sends it: a closed set. */
public sealed interface IpsetOp {

    /** {@code IPSET_CMD_CREATE}; creating a set that exists with the same type is a no-op. */
    record Create(IpsetSpec spec) implements IpsetOp {
        public Create {
            if (spec == null) {
                throw new IllegalArgumentException("spec is required");
            }
        }
    }

    /** {@code IPSET_CMD_DESTROY} of one set (never all: the name is required). */
    record Destroy(String set) implements IpsetOp {
        public Destroy {
            IpsetOp.requireName(set);
        }
    }

    /** {@code IPSET_CMD_FLUSH}: removes every member. */
    record Flush(String set) implements IpsetOp {
        public Flush {
            IpsetOp.requireName(set);
        }
    }

    /** {@code IPSET_CMD_SWAP}: exchanges the two sets' contents (same type). */
    record Swap(String set, String other) implements IpsetOp {
        public Swap {
            IpsetOp.requireName(set);
            IpsetOp.requireName(other);
        }
    }

    /** {@code IPSET_CMD_ADD}; adding a member that is there is a no-op. */
    record Add(String set, IpsetEntry entry) implements IpsetOp {
        public Add {
            IpsetOp.requireName(set);
            if (entry == null) {
                throw new IllegalArgumentException("entry is required");
            }
        }
    }

    /** {@code IPSET_CMD_DEL}; deleting a member that is not there is a no-op. */
    record Delete(String set, IpsetEntry entry) implements IpsetOp {
        public Delete {
            IpsetOp.requireName(set);
            if (entry == null) {
                throw new IllegalArgumentException("entry is required");
            }
        }
    }

    private static void requireName(String set) {
        if (set == null || set.isEmpty() || set.length() > 31) {
            throw new IllegalArgumentException("an ipset name has 1 to 31 characters: " + set);
        }
    }
}

package io.kproxy.backend.nftables;

import java.util.List;

/**
 * A regular chain of a service port and its rules, in order. {@code revision} is part of the
 * chain's identity without being written: it changes when an object the rules refer to must be
 * recreated (an affinity set whose timeout changed), so that the diff flushes and rewrites the
 * chain around that recreation.
 */
record NftChain(String name, List<String> rules, String revision) {

    NftChain {
        rules = List.copyOf(rules);
    }
}

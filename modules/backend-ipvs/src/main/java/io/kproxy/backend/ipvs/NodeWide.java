package io.kproxy.backend.ipvs;

import io.kproxy.state.LocalDetector;

/**
 * The node-wide inputs of one family's helper iptables rules. Immutable.
 *
 * @param masqueradeAll masquerade all cluster-IP traffic
 * @param masqueradeBit {@code iptables.masqueradeBit} (ipvs mode marks with it too)
 * @param detector      how pod traffic is recognised
 * @param randomFully   iptables takes {@code --random-fully}
 */
record NodeWide(boolean masqueradeAll, int masqueradeBit, LocalDetector detector, boolean randomFully) {

    NodeWide {
        if (detector == null || masqueradeBit < 0 || masqueradeBit > 31) {
            throw new IllegalArgumentException("a detector and a masquerade bit 0..31 are required");
        }
    }
}

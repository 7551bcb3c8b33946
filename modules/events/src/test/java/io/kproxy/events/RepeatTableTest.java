package io.kproxy.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The decoder's repeat table answers exactly what a set of strings would, although its hash reads
 * only three windows of the bytes: strings equal there but different elsewhere are distinct
 * entries, and growth keeps every entry.
 */
class RepeatTableTest {

    /** The strings laid out in one buffer, as a record holds them; returns their offsets. */
    private static int[] layout(List<String> strings, ByteArrayOutputStream out) {
        int[] at = new int[strings.size() + 1];
        for (int i = 0; i < strings.size(); i++) {
            at[i] = out.size();
            out.writeBytes(strings.get(i).getBytes(StandardCharsets.UTF_8));
        }
        at[strings.size()] = out.size();
        return at;
    }

    @Test
    void answersLikeASetOfStrings() {
        long seed = System.nanoTime();
        Random rnd = new Random(seed);
        List<String> strings = new ArrayList<>();
        for (int i = 0; i < 3_000; i++) {
            strings.add(switch (rnd.nextInt(5)) {
                // same first, middle and last eight bytes, different elsewhere: every one collides
                case 0 -> "prefix-1" + (char) ('a' + rnd.nextInt(3)) + "middle-2" + (char) ('a' + rnd.nextInt(3)) + "suffix-3";
                case 1 -> Integer.toString(rnd.nextInt(50)); // short ones, one to seven bytes
                case 2 -> "10.244." + rnd.nextInt(4) + "." + rnd.nextInt(4);
                case 3 -> "ünïcødé-" + rnd.nextInt(20);
                default -> "";
            });
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int[] at = layout(strings, out);
        RepeatTable table = new RepeatTable(out.toByteArray(), 8);
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < strings.size(); i++) {
            boolean added = table.add(at[i], at[i + 1] - at[i]);
            assertThat(added).as("seed=%d string %d \"%s\"", seed, i, strings.get(i)).isEqualTo(seen.add(strings.get(i)));
            assertThat(table.size()).isEqualTo(seen.size());
        }
        assertThat(seen.size()).as("the mix repeats and grows the table").isBetween(90, 100);
    }
}

package io.kproxy.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class NftListingTest {

    @Test
    void twoListingsOfTheSameRulesInAnotherOrderAreEqual() {
        String a = "table ip t {\n\tset s {\n\t\telements = { 10.0.0.2, 10.0.0.1 }\n\t}\n\n\tchain b {\n\t\taccept\n\t}\n\tchain a {\n\t\tdrop\n\t}\n}\n";
        String b = "table ip t {\n\tchain a {\n\t\tdrop\n\t}\n\tchain b {\n\t\taccept\n\t}\n\tset s {\n\t\telements = { 10.0.0.1,\n 10.0.0.2 }\n\t}\n}\n";
        assertThat(NftListing.canonical(a)).isEqualTo(NftListing.canonical(b));
    }

    @Test
    void differentRulesStayDifferent() {
        String a = "table ip t {\n\tchain a {\n\t\tdrop\n\t}\n}\n";
        String b = "table ip t {\n\tchain a {\n\t\taccept\n\t}\n}\n";
        assertThat(NftListing.canonical(a)).isNotEqualTo(NftListing.canonical(b));
    }
}

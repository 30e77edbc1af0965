package dev.shortgate.codegen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

class CodeAllocatorTest {

    static final String URL = "https://example.com/some/page?id=42";
    static final String OTHER_URL = "https://other.example/";

    final CodeGenerator generator = new CodeGenerator(CodeGeneratorTest.KEY);
    final CountingSalts salts = new CountingSalts();
    final TakenCodes store = new TakenCodes();

    @Test
    void freeFirstCandidateIsClaimedForTheUrl() {
        String first = generator.candidates(URL, 7, null).get(0);

        StepVerifier.create(allocator(8).allocate(URL, 7, store.claimFor(URL), store.existing(URL)))
                .expectNext(first)
                .verifyComplete();

        assertThat(store.codes).containsExactly(Map.entry(first, URL));
        assertThat(store.claims).containsExactly(first);
        assertThat(salts.used()).isZero();
        assertThat(store.existingLookups)
                .as("existing is not consulted before round 0")
                .hasValue(0);
    }

    @Test
    void candidateAlreadyHeldBySameUrlIsReturnedAgain() {
        String first = generator.candidates(URL, 7, null).get(0);
        store.codes.put(first, URL);

        StepVerifier.create(allocator(8).allocate(URL, 7, store.claimFor(URL), store.existing(URL)))
                .expectNext(first)
                .verifyComplete();

        assertThat(store.codes).hasSize(1);
    }

    @Test
    void candidateTakenByAnotherUrlFallsBackToTheNextCandidate() {
        List<String> round0 = generator.candidates(URL, 7, null);
        store.codes.put(round0.get(0), OTHER_URL);

        StepVerifier.create(allocator(8).allocate(URL, 7, store.claimFor(URL), store.existing(URL)))
                .expectNext(round0.get(1))
                .verifyComplete();

        assertThat(store.claims).containsExactly(round0.get(0), round0.get(1));
        assertThat(store.codes).containsEntry(round0.get(0), OTHER_URL).containsEntry(round0.get(1), URL);
    }

    @Test
    void threeTakenCandidatesFallBackToTheFourth() {
        List<String> round0 = generator.candidates(URL, 7, null);
        round0.subList(0, 3).forEach(code -> store.codes.put(code, OTHER_URL));

        StepVerifier.create(allocator(8).allocate(URL, 7, store.claimFor(URL), store.existing(URL)))
                .expectNext(round0.get(3))
                .verifyComplete();

        assertThat(store.claims).isEqualTo(round0);
        assertThat(salts.used()).isZero();
    }

    @Test
    void allFourTakenFallsBackToTheSaltedRoundAndStoresTheOriginalUrl() {
        List<String> round0 = generator.candidates(URL, 7, null);
        round0.forEach(code -> store.codes.put(code, OTHER_URL));
        String salted = generator.candidates(URL, 7, "salt-1").get(0);

        StepVerifier.create(allocator(8).allocate(URL, 7, store.claimFor(URL), store.existing(URL)))
                .expectNext(salted)
                .verifyComplete();

        assertThat(salts.used()).isEqualTo(1);
        assertThat(store.claims).containsExactly(round0.get(0), round0.get(1), round0.get(2), round0.get(3), salted);
        assertThat(store.claimedUrls)
                .as("the salt changes the candidates, never the URL")
                .containsOnly(URL);
        assertThat(store.codes).containsEntry(salted, URL);
        assertThat(store.existingLookups).hasValue(1);
    }

    @Test
    void takenSaltedCandidatesFallBackWithinTheRoundAndThenToAFreshSalt() {
        generator.candidates(URL, 7, null).forEach(code -> store.codes.put(code, OTHER_URL));
        List<String> round1 = generator.candidates(URL, 7, "salt-1");
        round1.forEach(code -> store.codes.put(code, OTHER_URL));
        List<String> round2 = generator.candidates(URL, 7, "salt-2");
        store.codes.put(round2.get(0), OTHER_URL);

        StepVerifier.create(allocator(8).allocate(URL, 7, store.claimFor(URL), store.existing(URL)))
                .expectNext(round2.get(1))
                .verifyComplete();

        assertThat(salts.used()).isEqualTo(2);
        assertThat(store.claims).hasSize(4 + 4 + 2).endsWith(round2.get(0), round2.get(1));
        assertThat(store.existingLookups)
                .as("consulted before round 1 and before round 2")
                .hasValue(2);
    }

    @Test
    void existingCodeOfAConcurrentCreatorIsReusedBeforeAnySaltedRound() {
        generator.candidates(URL, 7, null).forEach(code -> store.codes.put(code, OTHER_URL));
        store.codes.put("Conc123", URL); // another pod claimed a salted code for this URL meanwhile

        StepVerifier.create(allocator(8).allocate(URL, 7, store.claimFor(URL), store.existing(URL)))
                .expectNext("Conc123")
                .verifyComplete();

        assertThat(salts.used()).as("no salted round ran").isZero();
        assertThat(store.claims).hasSize(4);
    }

    @Test
    void claimFailureEndsAllocationWithThatError() {
        IllegalStateException down = new IllegalStateException("database down");
        AtomicInteger calls = new AtomicInteger();

        StepVerifier.create(allocator(8)
                        .allocate(
                                URL,
                                7,
                                code -> {
                                    calls.incrementAndGet();
                                    return Mono.<String>error(down);
                                },
                                Mono.empty()))
                .expectErrorSatisfies(error -> assertThat(error).isSameAs(down))
                .verify();

        assertThat(calls).hasValue(1);
        assertThat(salts.used()).isZero();
    }

    @Test
    void nothingIsClaimedUntilSubscribed() {
        Mono<String> allocation = allocator(8).allocate(URL, 7, store.claimFor(URL), store.existing(URL));

        assertThat(store.claims).isEmpty();
        StepVerifier.create(allocation).expectNextCount(1).verifyComplete();
        assertThat(store.claims).hasSize(1);
    }

    @Test
    void lengthOneCodeSpaceHoldsExactlySixtyTwoUrlsAndTheNextIsExhausted() {
        // With one free code left, a round misses it with probability (61/62)^4: its (up to) four candidates are
        // independent uniform draws from 62. Finding the last slots is a coupon-collector tail, so give each URL
        // 1024 rounds: the chance that the URL taking the last free code misses it in all of them is
        // (61/62)^(4 * 1024) = e^(-66.6), about 1e-29. The key and the counter-based salts are fixed, so the run
        // is the same every time; the bound only explains why this fixed run succeeds.
        int maxRounds = 1024;
        CodeAllocator allocator = allocator(maxRounds);
        Set<String> codes = new HashSet<>();
        for (int i = 0; i < 62; i++) {
            String url = "https://example.com/" + i;
            StepVerifier.create(allocator.allocate(url, 1, store.claimFor(url), store.existing(url)))
                    .assertNext(code -> assertThat(codes.add(code))
                            .as("new code for " + url)
                            .isTrue())
                    .verifyComplete();
        }
        assertThat(codes).as("every code of length 1").containsExactlyInAnyOrder(Base62.ALPHABET.split(""));
        assertThat(store.codes).hasSize(62);

        String last = "https://example.com/62";
        int saltsBefore = salts.used();
        int claimsBefore = store.claims.size();
        StepVerifier.create(allocator.allocate(last, 1, store.claimFor(last), store.existing(last)))
                .expectErrorSatisfies(error -> assertThat(error)
                        .isInstanceOfSatisfying(CodeSpaceExhaustedException.class, exhausted -> {
                            assertThat(exhausted.length()).isEqualTo(1);
                            assertThat(exhausted.rounds()).isEqualTo(maxRounds);
                        }))
                .verify();

        int saltsOfLast = salts.used() - saltsBefore;
        assertThat(saltsOfLast)
                .as("one unsalted round and maxRounds - 1 salted ones")
                .isEqualTo(maxRounds - 1);
        // Every distinct candidate of every round was tried once: recompute the rounds with the same salts.
        int expectedClaims = generator.candidates(last, 1, null).size();
        for (int s = saltsBefore + 1; s <= salts.used(); s++) {
            expectedClaims += generator.candidates(last, 1, "salt-" + s).size();
        }
        assertThat(store.claims.size() - claimsBefore).isEqualTo(expectedClaims).isBetween(maxRounds, 4 * maxRounds);
        assertThat(store.codes).hasSize(62).doesNotContainValue(last);
    }

    @Test
    void fullCodeSpaceEndsWithExhaustionAfterBoundedAttempts() {
        // Length 1 with all 62 codes held by another URL.
        for (char c : Base62.ALPHABET.toCharArray()) {
            store.codes.put(String.valueOf(c), OTHER_URL);
        }

        StepVerifier.create(allocator(8).allocate(URL, 1, store.claimFor(URL), store.existing(URL)))
                .expectError(CodeSpaceExhaustedException.class)
                .verify();

        assertThat(store.claims).hasSizeBetween(8, 4 * 8);
        assertThat(salts.used()).isEqualTo(7);
        assertThat(store.existingLookups).hasValue(7);
    }

    @Test
    void everyCandidateTakenAtDefaultLengthEndsWithExhaustionAfterFourClaimsPerRound() {
        AtomicInteger claims = new AtomicInteger();

        StepVerifier.create(allocator(8)
                        .allocate(
                                URL,
                                7,
                                code -> {
                                    claims.incrementAndGet();
                                    return Mono.<String>empty(); // held by another URL, whatever the code
                                },
                                Mono.empty()))
                .expectErrorSatisfies(error -> assertThat(error)
                        .isInstanceOf(CodeSpaceExhaustedException.class)
                        .hasMessage("No free code of length 7 after 8 rounds of candidates"))
                .verify();

        assertThat(claims).hasValue(4 * 8);
        assertThat(salts.used()).isEqualTo(7);
    }

    @Test
    void singleRoundAllocatorNeverSalts() {
        generator.candidates(URL, 7, null).forEach(code -> store.codes.put(code, OTHER_URL));

        StepVerifier.create(allocator(1).allocate(URL, 7, store.claimFor(URL), store.existing(URL)))
                .expectError(CodeSpaceExhaustedException.class)
                .verify();

        assertThat(store.claims).hasSize(4);
        assertThat(salts.used()).isZero();
        assertThat(store.existingLookups).hasValue(0);
    }

    @Test
    void invalidLengthIsRejectedBeforeAnyClaim() {
        CodeAllocator allocator = allocator(8);

        assertThatIllegalArgumentException()
                .isThrownBy(() -> allocator.allocate(URL, 0, store.claimFor(URL), Mono.empty()));
        assertThatIllegalArgumentException()
                .isThrownBy(() -> allocator.allocate(URL, 9, store.claimFor(URL), Mono.empty()));
        assertThat(store.claims).isEmpty();
    }

    @Test
    void maxRoundsBelowOneIsRejected() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new CodeAllocator(generator, 0, salts))
                .withMessage("maxRounds must be at least 1, got 0");
    }

    @Test
    void timestampSaltsAreTheClockMillisWithAnIncreasingNonce() {
        Clock clock = Clock.fixed(Instant.ofEpochMilli(1_700_000_000_123L), ZoneOffset.UTC);
        Supplier<String> timestampSalts = CodeAllocator.timestampSalts(clock);

        assertThat(List.of(timestampSalts.get(), timestampSalts.get(), timestampSalts.get()))
                .containsExactly("1700000000123-1", "1700000000123-2", "1700000000123-3");
    }

    private CodeAllocator allocator(int maxRounds) {
        return new CodeAllocator(generator, maxRounds, salts);
    }

    /** Deterministic salts {@code salt-1, salt-2, ...}, counted. */
    static final class CountingSalts implements Supplier<String> {

        private int used;

        @Override
        public String get() {
            return "salt-" + ++used;
        }

        int used() {
            return used;
        }
    }

    /** The link table's unique key in memory: code to URL. */
    static final class TakenCodes {

        final Map<String, String> codes = new HashMap<>();
        final List<String> claims = new ArrayList<>();
        final List<String> claimedUrls = new ArrayList<>();
        final AtomicInteger existingLookups = new AtomicInteger();

        /**
         * The claim function for {@code url}: takes a free code, answers a code this URL already holds, and
         * completes empty when another URL holds it.
         */
        Function<String, Mono<String>> claimFor(String url) {
            return code -> Mono.fromCallable(() -> {
                claims.add(code);
                claimedUrls.add(url);
                String holder = codes.putIfAbsent(code, url);
                return holder == null || holder.equals(url) ? code : null;
            });
        }

        /** A code this URL already holds, looked up afresh on each subscription. */
        Mono<String> existing(String url) {
            return Mono.fromCallable(() -> {
                existingLookups.incrementAndGet();
                return codes.entrySet().stream()
                        .filter(e -> e.getValue().equals(url))
                        .map(Map.Entry::getKey)
                        .sorted()
                        .findFirst()
                        .orElse(null);
            });
        }
    }
}

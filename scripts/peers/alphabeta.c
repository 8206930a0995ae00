/*
 * alphabeta.c: a plain C alpha-beta over a hashed implicit tree, our own peer for measurement, written for
 * khela to stand next to the criterion bench `alphabeta-implicit-iid` of crates/exact/benches/search.rs (not
 * copied from anywhere).
 *
 * The tree is khela's `ImplicitTree::hashed(b, d, seed, Model::Iid { lo, hi })` (crates/games/src/implicit.rs):
 *   - uniform: branching b, every leaf at depth d, MAX to move at even depths (the root), MIN at odd depths;
 *   - nodes numbered breadth-first: node number = level_offset[depth] + index, where level_offset[k] is the
 *     number of nodes above depth k (1 + b + ... + b^(k-1)) and index is the node's position among the nodes of
 *     its depth, left to right (child mv of index i has index i*b + mv);
 *   - a leaf's value is uniform(node_word(seed, number), lo, hi), with node_word and uniform below written
 *     from khela's definitions (SplitMix64 of the seed, one PCG LCG step, PCG's RXS-M-XS output; a
 *     multiply-shift of the word onto lo..=hi in 128-bit arithmetic).
 *
 * The search is khela's `Algorithm::AlphaBeta` with `Ordering::Natural` (crates/exact/src/search.rs): fail-soft
 * minimax alpha-beta, children in natural order 0..b-1, the best value starting at -inf (MAX) or +inf (MIN),
 * alpha = max(alpha, v) at MAX and beta = min(beta, v) at MIN after each child, the remaining children cut when
 * alpha >= beta, the root searched with the full window (-inf, +inf). khela's values are f64 with infinite
 * bounds; the leaves here are integers far inside i64, so int64_t with INT64_MIN / INT64_MAX as the infinities
 * makes every comparison come out the same. The node count is every call of the search, the root and the
 * leaves included, as khela's Stats::nodes counts. So for the same (b, d, seed, lo, hi) the value and the node
 * count printed here equal khela's; scripts/peers/run.sh checks that.
 *
 * Usage: alphabeta b d [seed=1] [min_seconds=2] [lo=0] [hi=2^31-1]
 * Runs the search repeatedly for at least min_seconds (and at least 5 times) and prints the value, the node
 * count and the median time per search and nodes per second.
 * Build: gcc -O2 -march=native -o alphabeta alphabeta.c
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define MAX_D 64

static uint64_t level_offset[MAX_D + 1];
static unsigned B, D;
static uint64_t SEED;
static int64_t LO, HI;
static uint64_t nodes;

static inline uint64_t splitmix(uint64_t z) {
    z += UINT64_C(0x9E3779B97F4A7C15);
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* The random word of node n: a PCG-style hash of (seed, n). */
static inline uint64_t node_word(uint64_t seed, uint64_t n) {
    uint64_t state = splitmix(seed) + n * UINT64_C(0x9E3779B97F4A7C15);
    state = state * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
    uint64_t word = ((state >> ((state >> 59) + 5)) ^ state) * UINT64_C(12605985483714917081);
    return (word >> 43) ^ word;
}

/* A uniform integer in lo..=hi from a word: lo + floor(word * span / 2^64), span = hi - lo + 1. */
static inline int64_t uniform(uint64_t word, int64_t lo, int64_t hi) {
    unsigned __int128 span = (unsigned __int128)((__int128)hi - (__int128)lo + 1);
    return (int64_t)((__int128)lo + (__int128)(((unsigned __int128)word * span) >> 64));
}

#define NEG_INF INT64_MIN
#define POS_INF INT64_MAX

/* Fail-soft alpha-beta on the node (depth, index); MAX moves at even depths. */
static int64_t search(unsigned depth, uint64_t index, int64_t alpha, int64_t beta) {
    nodes++;
    if (depth == D) return uniform(node_word(SEED, level_offset[depth] + index), LO, HI);
    uint64_t first = index * B;
    if ((depth & 1) == 0) {
        int64_t best = NEG_INF;
        for (unsigned mv = 0; mv < B; mv++) {
            int64_t v = search(depth + 1, first + mv, alpha, beta);
            if (v > best) best = v;
            if (v > alpha) alpha = v;
            if (alpha >= beta) break;
        }
        return best;
    } else {
        int64_t best = POS_INF;
        for (unsigned mv = 0; mv < B; mv++) {
            int64_t v = search(depth + 1, first + mv, alpha, beta);
            if (v < best) best = v;
            if (v < beta) beta = v;
            if (alpha >= beta) break;
        }
        return best;
    }
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s b d [seed=1] [min_seconds=2] [lo=0] [hi=2147483647]\n", argv[0]);
        return 2;
    }
    B = (unsigned)strtoul(argv[1], NULL, 10);
    D = (unsigned)strtoul(argv[2], NULL, 10);
    SEED = argc > 3 ? strtoull(argv[3], NULL, 10) : 1;
    double min_seconds = argc > 4 ? atof(argv[4]) : 2.0;
    LO = argc > 5 ? strtoll(argv[5], NULL, 10) : 0;
    HI = argc > 6 ? strtoll(argv[6], NULL, 10) : (INT64_C(1) << 31) - 1;
    if (B == 0 || D > MAX_D || LO > HI) {
        fprintf(stderr, "need b >= 1, d <= %d, lo <= hi\n", MAX_D);
        return 2;
    }
    /* level_offset[k] = 1 + b + ... + b^(k-1) (no overflow check: the benched trees are far below 2^62). */
    uint64_t level = 1, total = 1;
    level_offset[0] = 0;
    for (unsigned k = 1; k <= D; k++) {
        level *= B;
        level_offset[k] = total;
        total += level;
    }

    enum { MAX_REPS = 100000 };
    static double times[MAX_REPS];
    int reps = 0;
    int64_t value = 0;
    uint64_t count = 0;
    double started = now();
    while (reps < MAX_REPS && (reps < 5 || now() - started < min_seconds)) {
        nodes = 0;
        double t0 = now();
        int64_t v = search(0, 0, NEG_INF, POS_INF);
        times[reps] = now() - t0;
        if (reps > 0 && (v != value || nodes != count)) {
            fprintf(stderr, "repeated search differs\n");
            return 1;
        }
        value = v;
        count = nodes;
        reps++;
    }
    qsort(times, (size_t)reps, sizeof times[0], cmp_double);
    double median = reps % 2 ? times[reps / 2] : 0.5 * (times[reps / 2 - 1] + times[reps / 2]);
    printf("c-alphabeta b=%u d=%u seed=%" PRIu64 " value=%" PRId64 " nodes=%" PRIu64
           " reps=%d median_s=%.6f nodes_per_s=%.4e\n",
           B, D, SEED, value, count, reps, median, (double)count / median);
    return 0;
}

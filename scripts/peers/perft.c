/*
 * perft.c: a plain single-threaded Connect-4 perft in C, our own peer for measurement, written for khela to
 * stand next to `bench-suite count --game connect4 --only sequences` (not copied from anywhere).
 *
 * What it counts is what khela counts (crates/exact/src/count.rs, `perft`): sequences[k] is the number of move
 * sequences of exactly k moves from the empty 7x6 board, where a position in which the last mover has four in
 * a row is not extended (nor a full board). Ply 11 is 1,844,590,828.
 *
 * How it counts: by default deliberately plain, one recursive call per sequence, every move made, every leaf
 * at the last ply visited by a call of its own. With the argument `bulk`, as khela counts: the last ply's
 * sequences of a position that goes on are the population count of its legal-move mask, those moves not made
 * (the fair peer for khela's count, which does the same).
 *
 * Board: Pons' bitboards, as in crates/games/src/connect4.rs. Column c occupies bits 7c .. 7c+5 (a stride of
 * height + 1 = 7 bits, the top bit of each column a sentinel that is always clear); `current` holds the stones
 * of the side to move, `mask` all stones. Playing column c: current ^= mask; mask |= mask + bottom(c). Columns
 * are tried left to right, as khela's natural order.
 *
 * Usage: perft [depth] [bulk]   (depth 11 by default). Prints the count per ply and the time of the count.
 * Build: gcc -O2 -march=native -o perft perft.c
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define WIDTH 7
#define HEIGHT 6
#define STRIDE (HEIGHT + 1)
#define CELLS (WIDTH * HEIGHT)
#define MAX_DEPTH CELLS

static uint64_t counts[MAX_DEPTH + 1];

static inline uint64_t bottom_cell(int col) { return UINT64_C(1) << (col * STRIDE); }
static inline uint64_t top_cell(int col) { return UINT64_C(1) << (HEIGHT - 1 + col * STRIDE); }

/* Four in a row among `stones`, in the four directions: shift 1 (vertical), 7 (horizontal), 6 and 8
 * (diagonals). m = s & (s >> d) marks the starts of pairs, m & (m >> 2d) the starts of fours. */
static inline int has_won(uint64_t s) {
    uint64_t m;
    m = s & (s >> 1);
    if (m & (m >> 2)) return 1;
    m = s & (s >> STRIDE);
    if (m & (m >> (2 * STRIDE))) return 1;
    m = s & (s >> (STRIDE - 1));
    if (m & (m >> (2 * (STRIDE - 1)))) return 1;
    m = s & (s >> (STRIDE + 1));
    return (m & (m >> (2 * (STRIDE + 1)))) != 0;
}

/* Visits the position reached by `ply` moves: counts it, and unless it is the last ply, won by the player who
 * just moved, or full, makes every legal move and visits the child. */
static int bulk;
static const uint64_t BOTTOM = UINT64_C(0x0040810204081); /* the bottom cell of every column */
static const uint64_t BOARD = UINT64_C(0x0FDFBF7EFDFBF); /* every cell, no sentinel */

static void perft(uint64_t current, uint64_t mask, int ply, int depth) {
    counts[ply]++;
    if (ply == depth) return;
    if (has_won(current ^ mask)) return; /* the stones of the player who just moved */
    if (ply == CELLS) return;
    if (bulk && ply + 1 == depth) {
        counts[depth] += (uint64_t)__builtin_popcountll((mask + BOTTOM) & BOARD);
        return;
    }
    for (int col = 0; col < WIDTH; col++) {
        if (mask & top_cell(col)) continue; /* column full */
        perft(current ^ mask, mask | (mask + bottom_cell(col)), ply + 1, depth);
    }
}

int main(int argc, char **argv) {
    int depth = argc > 1 ? atoi(argv[1]) : 11;
    bulk = argc > 2 && argv[2][0] == 'b';
    if (depth < 0 || depth > MAX_DEPTH) {
        fprintf(stderr, "depth must be in 0..=%d\n", MAX_DEPTH);
        return 2;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    perft(0, 0, 0, depth);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    for (int k = 0; k <= depth; k++) printf("ply %2d %15llu\n", k, (unsigned long long)counts[k]);
    printf("c-perft%s depth %d: %llu sequences at the last ply in %.3f s (%.3e per second)\n", bulk ? "-bulk" : "", depth,
           (unsigned long long)counts[depth], seconds, (double)counts[depth] / seconds);
    return 0;
}

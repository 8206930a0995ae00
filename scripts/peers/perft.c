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
 * Board: connect4.h (Pons' bitboards, as khela's). Columns are tried left to right, as khela's natural order.
 *
 * Usage: perft [depth] [plain|bulk]   (depth 11, plain by default). Prints the count per ply and the time of the count.
 * Build: gcc -O2 -march=native -o perft perft.c
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "connect4.h"

#define MAX_DEPTH CELLS

static uint64_t counts[MAX_DEPTH + 1];

static int bulk;

static void perft(uint64_t current, uint64_t mask, int ply, int depth) {
    counts[ply]++;
    if (ply == depth) return;
    if (has_won(current ^ mask)) return; /* the stones of the player who just moved */
    if (ply == CELLS) return;
    if (bulk && ply + 1 == depth) {
        counts[depth] += (uint64_t)legal_count(mask);
        return;
    }
    for (int col = 0; col < WIDTH; col++) {
        if (mask & top_cell(col)) continue; /* column full */
        perft(current ^ mask, mask | (mask + bottom_cell(col)), ply + 1, depth);
    }
}

int main(int argc, char **argv) {
    char *end = NULL;
    long parsed = argc > 1 ? strtol(argv[1], &end, 10) : 11;
    int bad_depth = argc > 1 && (end == argv[1] || *end != '\0');
    if (argc > 2 && strcmp(argv[2], "bulk") != 0 && strcmp(argv[2], "plain") != 0) {
        fprintf(stderr, "the mode must be plain or bulk, not %s\n", argv[2]);
        return 2;
    }
    int depth = (int)parsed;
    bulk = argc > 2 && strcmp(argv[2], "bulk") == 0;
    if (bad_depth || parsed < 0 || parsed > MAX_DEPTH) {
        fprintf(stderr, "depth must be a whole number in 0..=%d, not %s\n", MAX_DEPTH, argc > 1 ? argv[1] : "");
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

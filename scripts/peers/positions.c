/*
 * positions.c: a plain single-threaded count of Connect-4's distinct positions per ply in C, our own peer for
 * measurement, written for khela to stand next to `bench-suite count --game connect4 --only positions` (not
 * copied from anywhere).
 *
 * What it counts is what khela counts (crates/exact/src/count/mod.rs, `distinct_positions`): positions[k] is the
 * number of distinct positions reached by exactly k moves from the empty 7x6 board, where a position in which
 * the last mover has four in a row is not extended (nor a full board). Ply 12 is 12,236,101.
 *
 * How: a naive breadth-first search, ply by ply. The children of a ply are put in an open-addressing hash set
 * of their keys (linear probing, a power-of-two table at least twice the number of children, a
 * multiplicative hash); a child whose key is new is appended to the next ply's array. Board: connect4.h (Pons'
 * bitboards, as khela's); key = current + mask (unique for a 7x6 position).
 *
 * Usage: positions [depth]   (default 12). Prints the count per ply and the time of the count; the peak
 * memory is the process's (measure it with /usr/bin/time -v).
 * Build: gcc -O2 -march=native -o positions positions.c
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "connect4.h"

typedef struct {
    uint64_t current, mask;
} position;

/* Whether the game goes on after `p`: the player who just moved has not won, and the board is not full. */
static inline int goes_on(position p) {
    return !has_won(p.current ^ p.mask) && __builtin_popcountll(p.mask) < CELLS;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv) {
    char *end = NULL;
    long parsed = argc > 1 ? strtol(argv[1], &end, 10) : 12;
    int bad_depth = argc > 1 && (end == argv[1] || *end != '\0');
    if (bad_depth || parsed < 0 || parsed > CELLS) {
        fprintf(stderr, "depth must be a whole number in 0..=%d, not %s\n", CELLS, argc > 1 ? argv[1] : "");
        return 2;
    }
    int depth = (int)parsed;
    double t0 = now();
    position *level = malloc(sizeof(position));
    level[0] = (position){0, 0};
    size_t count = 1;
    printf("ply %2d %15zu\n", 0, count);
    for (int ply = 1; ply <= depth; ply++) {
        size_t children = 0;
        for (size_t i = 0; i < count; i++)
            if (goes_on(level[i])) children += (size_t)legal_count(level[i].mask);
        size_t size = 1;
        while (size < 2 * children) size <<= 1;
        if (size < 2) size = 2;
        /* Keys are never 0 after a move (mask is not empty), so 0 marks an empty slot. */
        uint64_t *set = calloc(size, sizeof(uint64_t));
        position *next = malloc((children ? children : 1) * sizeof(position));
        size_t found = 0;
        int shift = 64 - __builtin_ctzll(size);
        for (size_t i = 0; i < count; i++) {
            position p = level[i];
            if (!goes_on(p)) continue;
            for (int col = 0; col < WIDTH; col++) {
                if (p.mask & top_cell(col)) continue;
                position c = {p.current ^ p.mask, p.mask | (p.mask + bottom_cell(col))};
                uint64_t key = c.current + c.mask;
                size_t slot = (size_t)((key * UINT64_C(0x9E3779B97F4A7C15)) >> shift);
                while (set[slot] != 0 && set[slot] != key) slot = (slot + 1) & (size - 1);
                if (set[slot] == 0) {
                    set[slot] = key;
                    next[found++] = c;
                }
            }
        }
        free(set);
        free(level);
        level = next;
        count = found;
        printf("ply %2d %15zu\n", ply, count);
    }
    double seconds = now() - t0;
    printf("c-positions depth %d: %zu positions at the last ply in %.3f s\n", depth, count, seconds);
    free(level);
    return 0;
}

/*
 * connect4.h: the 7x6 Connect-4 board of our C peers (perft.c, positions.c), written for khela (not copied
 * from anywhere): Pons' bitboards, as in crates/games/src/connect4.rs. Column c occupies bits 7c .. 7c+5 (a
 * stride of height + 1 = 7 bits, the top bit of each column a sentinel that is always clear); `current` holds
 * the stones of the side to move, `mask` all stones. Playing column c: current ^= mask; mask |= mask +
 * bottom(c).
 */
#ifndef KHELA_PEERS_CONNECT4_H
#define KHELA_PEERS_CONNECT4_H

#include <stdint.h>

#define WIDTH 7
#define HEIGHT 6
#define STRIDE (HEIGHT + 1)
#define CELLS (WIDTH * HEIGHT)

/* The bottom cell of every column, and every cell (no sentinel). */
static const uint64_t BOTTOM = UINT64_C(0x0040810204081);
static const uint64_t BOARD = UINT64_C(0x0FDFBF7EFDFBF);

static inline uint64_t bottom_cell(int col) { return UINT64_C(1) << (col * STRIDE); }
static inline uint64_t top_cell(int col) { return UINT64_C(1) << (HEIGHT - 1 + col * STRIDE); }

/* The number of legal moves: the columns that are not full. */
static inline int legal_count(uint64_t mask) { return __builtin_popcountll((mask + BOTTOM) & BOARD); }

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

#endif

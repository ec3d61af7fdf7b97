/* The classic mirror-halved bitmask N-Queens counter (after Jeff Somers' program):
 * the first row tries only the left half of the columns and the count is doubled; for odd
 * n the middle column of the first row is searched with the second row halved instead.
 * Counts all solutions (no symmetry classes). Reference for benches/reference/compare.sh.
 * Usage: nqueens_somers N */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static unsigned long long solve(int n, unsigned mask, unsigned cols, unsigned ld, unsigned rd)
{
    if (cols == mask)
        return 1;
    unsigned long long count = 0;
    unsigned free = ~(cols | ld | rd) & mask;
    while (free) {
        unsigned bit = free & -free;
        free ^= bit;
        count += solve(n, mask, cols | bit, (ld | bit) << 1, (rd | bit) >> 1);
    }
    return count;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 8;
    if (n < 1 || n > 31) {
        fprintf(stderr, "n must be in 1..31\n");
        return 2;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    unsigned mask = (1u << n) - 1;
    unsigned long long total = 0;
    /* Queens in the left half of the first row; their mirror images give the right half. */
    for (int c = 0; c < n / 2; c++) {
        unsigned bit = 1u << c;
        total += 2 * solve(n, mask, bit, bit << 1, bit >> 1);
    }
    if (n & 1) {
        /* Middle column of the first row: the second row's queen can be mirrored instead. */
        unsigned mid = 1u << (n / 2);
        unsigned free = ~(mid | mid << 1 | mid >> 1) & mask;
        for (unsigned f = free & ((1u << (n / 2)) - 1); f; f &= f - 1) {
            unsigned bit = f & -f;
            unsigned cols = mid | bit;
            total += 2 * solve(n, mask, cols, (mid << 2) | (bit << 1), (mid >> 2) | (bit >> 1));
        }
        if (n == 1)
            total = 1;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
    printf("n=%d total=%llu seconds=%.3f\n", n, total, secs);
    return 0;
}

/* A straightforward C row backtracker for "Less Than Three" (n x n, 2n black and 2n white
 * stones, at most 2 of a colour on any line through 3 or more grid points), with a counter
 * per line and colour: the reference the `lines` kind is timed against.
 *
 * Each row takes exactly 2 black and 2 white stones (the totals force it); the search tries
 * every pair of squares for black, then every pair of the remaining squares for white, and a
 * stone is placed only if no line through it already holds 2 of its colour.
 *
 * Build: gcc -O3 -march=native -o lessthanthree lessthanthree.c
 * Usage: lessthanthree [n]   (default 6; prints "solutions=S nodes=N")
 */
#include <stdio.h>
#include <stdlib.h>

#define MAXN 12
#define MAXLINES 4096
#define MAXTHROUGH 64

static int n;
static int nlines;
static int through[MAXN * MAXN][MAXTHROUGH]; /* lines through a square, its row excluded */
static int nthrough[MAXN * MAXN];
static unsigned char cnt[MAXLINES][2];
static int board[MAXN * MAXN];
static long long solutions, nodes;

static int gcd(int a, int b) { return b == 0 ? (a < 0 ? -a : a) : gcd(b, a % b); }

static void add_lines(void) {
    for (int dc = 0; dc < n; dc++)
        for (int dr = -(n - 1); dr < n; dr++) {
            if (dc == 0 && dr != 1) continue;
            if (gcd(dc, dr) != 1) continue;
            if (2 * dc > n - 1 || 2 * abs(dr) > n - 1) continue;
            for (int r = 0; r < n; r++)
                for (int c = 0; c < n; c++) {
                    int pr = r - dr, pc = c - dc;
                    if (pr >= 0 && pr < n && pc >= 0 && pc < n) continue;
                    int pts[MAXN], k = 0;
                    for (int rr = r, cc = c; rr >= 0 && rr < n && cc >= 0 && cc < n;
                         rr += dr, cc += dc)
                        pts[k++] = rr * n + cc;
                    if (k < 3) continue;
                    int is_row = (dr == 0);
                    if (!is_row)
                        for (int i = 0; i < k; i++)
                            through[pts[i]][nthrough[pts[i]]++] = nlines;
                    nlines++;
                }
        }
}

static int ok(int sq, int colour) {
    for (int i = 0; i < nthrough[sq]; i++)
        if (cnt[through[sq][i]][colour] >= 2) return 0;
    return 1;
}

static void put(int sq, int colour, int d) {
    for (int i = 0; i < nthrough[sq]; i++) cnt[through[sq][i]][colour] += d;
    board[sq] = d > 0 ? colour + 1 : 0;
}

static void row(int r) {
    if (r == n) {
        solutions++;
        return;
    }
    int base = r * n;
    for (int a = 0; a < n; a++) {
        if (!ok(base + a, 0)) continue;
        put(base + a, 0, 1);
        for (int b = a + 1; b < n; b++) {
            if (!ok(base + b, 0)) continue;
            put(base + b, 0, 1);
            for (int c = 0; c < n; c++) {
                if (board[base + c] || !ok(base + c, 1)) continue;
                put(base + c, 1, 1);
                for (int d = c + 1; d < n; d++) {
                    if (board[base + d] || !ok(base + d, 1)) continue;
                    put(base + d, 1, 1);
                    nodes++;
                    row(r + 1);
                    put(base + d, 1, -1);
                }
                put(base + c, 1, -1);
            }
            put(base + b, 0, -1);
        }
        put(base + a, 0, -1);
    }
}

int main(int argc, char **argv) {
    n = argc > 1 ? atoi(argv[1]) : 6;
    if (n < 4 || n > MAXN) {
        fprintf(stderr, "n: 4 to %d\n", MAXN);
        return 2;
    }
    add_lines();
    row(0);
    printf("solutions=%lld nodes=%lld\n", solutions, nodes);
    return 0;
}

#include <stdio.h>
#define MAX(a, b) ((a) > (b) ? (a) : (b)) // macro
#define STR "// not a comment"
/** Doc for point. */
struct point {
    int x;
    int y;
};
#if !defined(NO_THREADS)
static int threads = 1;
#endif
static int add(int a, int b);
int main(void);
#define APPEND(s, c, err) BLOCK_BEGIN { \
    if ((c) < 0x80) { \
        (s) = (c); \
    } else /* too large */ { \
        (err) = 1; \
    } \
} BLOCK_END
#define HALF ((LIMIT + 1) / 2)

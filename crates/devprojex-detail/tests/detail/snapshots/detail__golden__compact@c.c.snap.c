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
static int add(int a, int b)
{
    return a + b;
}
int main(void) {
    char *s = "/* not a comment */";
    char c = '/';
    return add(1, 2);
}
#define APPEND(s, c, err) BLOCK_BEGIN { \
    if ((c) < 0x80) { \
        (s) = (c); \
    } else /* too large */ { \
        (err) = 1; \
    } \
} BLOCK_END
#define HALF ((LIMIT + 1) / 2)

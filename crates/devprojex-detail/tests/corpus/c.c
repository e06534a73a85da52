#include <stdio.h> /* trailing */
#define MAX(a, b) ((a) > (b) ? (a) : (b)) // macro
#define STR "// not a comment"

/** Doc for point. */
struct point {
    int x; /* x */
    int y;
};

#if !defined(NO_THREADS)

/* The directive's newline token takes the blank line above with LF line ends, not with CRLF. */
static int threads = 1;

#endif

// Ordinary.
static int add(int a, int b)
{
    /* block */
    return a + b;
}

int main(void) {
    char *s = "/* not a comment */";
    char c = '/';
    return add(1, 2);
}

/* A comment inside a macro body, before a continuation. */
#define APPEND(s, c, err) BLOCK_BEGIN { \
    if ((c) < 0x80) { \
        (s) = (c); \
    } else /* too large */ { \
        (err) = 1; \
    } \
} BLOCK_END
#define HALF ((LIMIT + 1) / 2) /* rounded up */

/* One module, many ways to fail: the first letter of params.mode picks one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *volatile sink;

int main(void) {
    static char request[4096];
    size_t n = fread(request, 1, sizeof request - 1, stdin);
    request[n] = 0;
    const char *mode = strstr(request, "\"mode\"");
    mode = mode ? strchr(mode + 6, '"') : NULL;  /* the value's opening quote */
    char m = mode ? mode[1] : 'o';
    volatile unsigned long spin = 0;
    switch (m) {
    case 'l':  /* loop: runs out of fuel, or past its deadline when fuel is plenty */
        for (;;) spin++;
    case 'm':  /* memory: grow until refused (the volatile sink keeps malloc from being elided) */
        for (;;) {
            char *block = malloc(1 << 20);
            if (!block) { puts("out of memory"); return 12; }
            sink = block;
        }
    case 't':  /* trap */
        __builtin_trap();
    case 'e':  /* non-zero exit */
        fputs("giving up\n", stderr);
        return 3;
    case 'f':  /* flood stdout */
        for (int i = 0; i < 10000000; i++) fputs("xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", stdout);
        return 0;
    case 'j':  /* not JSON */
        puts("hello, not json");
        return 0;
    default:
        printf("{\"ok\": true}");
        return 0;
    }
}

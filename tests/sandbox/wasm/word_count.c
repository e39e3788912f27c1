/* A word-count tool: {"params": {"text": "..."}} on stdin, {"words": n} on stdout. */
#include <stdio.h>
#include <string.h>

int main(void) {
    static char request[1 << 16];
    size_t n = fread(request, 1, sizeof request - 1, stdin);
    request[n] = 0;
    const char *text = strstr(request, "\"text\"");
    int words = 0;
    if (text) {
        text = strchr(text + 6, '"');
        int inside = 0;
        for (const char *c = text ? text + 1 : ""; *c && *c != '"'; c++) {
            int space = *c == ' ' || *c == '\t' || *c == '\n';
            if (!space && !inside) words++;
            inside = !space;
        }
    }
    printf("{\"words\": %d}", words);
    return 0;
}

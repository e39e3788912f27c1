/* An example tool using host calls: looks an order up over HTTP, logs, and records the order in
 * the session's variables. The request's "url" parameter says where (an allowlisted host). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "quiver.h"

static char request[1 << 16], host_request[1 << 12], reply[1 << 16];

/* The string value of "key" in a flat JSON object, copied into out (no escapes handled). */
static int string_field(const char *json, const char *key, char *out, int cap) {
    char pattern[64];
    snprintf(pattern, sizeof pattern, "\"%s\"", key);
    const char *at = strstr(json, pattern);
    if (!at) return -1;
    at = strchr(at + strlen(pattern), '"');
    if (!at) return -1;
    int n = 0;
    for (at++; *at && *at != '"' && n < cap - 1; at++) out[n++] = *at;
    out[n] = '\0';
    return n;
}

int main(void) {
    char url[512];
    size_t n = fread(request, 1, sizeof request - 1, stdin);
    request[n] = '\0';
    if (string_field(request, "url", url, sizeof url) < 0) {
        printf("{\"success\": false, \"message\": \"no url\"}");
        return 0;
    }
    snprintf(host_request, sizeof host_request,
             "{\"module\": \"logger\", \"method\": \"info\", \"args\": {\"message\": \"looking up %s\"}}", url);
    quiver_host(host_request, reply, sizeof reply);

    snprintf(host_request, sizeof host_request,
             "{\"module\": \"http\", \"method\": \"GET\", \"args\": {\"url\": \"%s\"}}", url);
    if (quiver_host(host_request, reply, sizeof reply) < 0) {
        printf("{\"success\": false, \"message\": \"no reply\"}");
        return 0;
    }
    if (strncmp(reply, "{\"ok\":true", 10) != 0) {
        char error[256] = "refused";
        string_field(reply, "error", error, sizeof error);
        printf("{\"success\": false, \"message\": \"lookup refused: %s\"}", error);
        return 0;
    }
    const char *status = strstr(reply, "\"status\":");
    int code = status ? (int)strtol(status + 9, NULL, 10) : 0;
    quiver_host("{\"module\": \"context\", \"method\": \"update\", \"args\": {\"order_checked\": true}}",
                reply, sizeof reply);
    printf("{\"success\": true, \"status\": %d}", code);
    return 0;
}

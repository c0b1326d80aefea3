/*
 * json_commands.c — drives a match of system-demo through the JSON side of the fm C API:
 * prints the pending decision, applies a few legal commands and prints their events,
 * shows a refused command naming the rule it breaks, then saves, loads, undoes and looks
 * at one side's view.
 *
 *   json_commands [SEED] [COMMANDS]        (defaults: seed 1, 6 commands)
 */

#include "fm.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int report(const char *what, fm_status status) {
    char *message = NULL;
    const char *name = "?";
    fm_status_name(status, &name);
    fm_last_error_message(&message);
    fprintf(stderr, "%s failed: %s: %s\n", what, name, message ? message : "");
    fm_string_free(message);
    return 1;
}

#define CHECK(call)                                                                            \
    do {                                                                                       \
        fm_status st_ = (call);                                                                \
        if (st_ != FM_OK) {                                                                    \
            rc = report(#call, st_);                                                           \
            goto done;                                                                         \
        }                                                                                      \
    } while (0)

/*
 * Copies the first element of a JSON array of objects ("[{...},{...}]") into a new
 * malloc'd string, or returns NULL if the array is empty. Enough JSON for this example:
 * it tracks strings and nesting, nothing more.
 */
static char *first_object(const char *array) {
    const char *p = strchr(array, '{');
    if (p == NULL) return NULL;
    int depth = 0;
    bool in_string = false;
    for (const char *q = p; *q; q++) {
        if (in_string) {
            if (*q == '\\' && q[1]) q++;
            else if (*q == '"') in_string = false;
        } else if (*q == '"') {
            in_string = true;
        } else if (*q == '{' || *q == '[') {
            depth++;
        } else if (*q == '}' || *q == ']') {
            if (--depth == 0) {
                size_t n = (size_t)(q - p) + 1;
                char *out = malloc(n + 1);
                if (out == NULL) return NULL;
                memcpy(out, p, n);
                out[n] = '\0';
                return out;
            }
        }
    }
    return NULL;
}

int main(int argc, char **argv) {
    uint64_t seed = argc > 1 ? strtoull(argv[1], NULL, 10) : 1;
    int count = argc > 2 ? atoi(argv[2]) : 6;
    int rc = 0;
    fm_match *m = NULL, *loaded = NULL;
    char *json = NULL, *legal = NULL, *events = NULL, *save = NULL, *view = NULL;
    char *command = NULL, *message = NULL, *rule = NULL;

    CHECK(fm_match_new("system-demo", seed, &m));
    CHECK(fm_match_opening_events(m, &json));
    printf("opening events: %s\n", json);
    fm_string_free(json);
    json = NULL;

    for (int i = 0; i < count; i++) {
        CHECK(fm_match_pending(m, &json));
        printf("\npending: %s\n", json);
        fm_string_free(json);
        json = NULL;

        CHECK(fm_match_legal_commands(m, &legal));
        command = first_object(legal);
        fm_string_free(legal);
        legal = NULL;
        if (command == NULL) break; /* game over */

        CHECK(fm_match_apply(m, command, &events));
        printf("apply %s\n  -> events %s\n", command, events);
        fm_string_free(events);
        events = NULL;
        free(command);
        command = NULL;
    }

    /* A command the rules refuse: nothing changes, and the error names the rule. */
    uint64_t before = 0, after = 0;
    CHECK(fm_match_state_hash(m, &before));
    fm_status st = fm_match_apply(m, "{\"type\":\"move\",\"unit\":\"nobody\",\"path\":[]}", &events);
    const char *name = "?";
    fm_status_name(st, &name);
    fm_last_error_rule(&rule);
    fm_last_error_message(&message);
    printf("\nrefused: %s, rule \"%s\": %s\n", name, rule, message);
    CHECK(fm_match_state_hash(m, &after));
    printf("state unchanged: %s\n", before == after ? "yes" : "NO");
    if (st != FM_ILLEGAL_COMMAND || before != after) rc = 1;

    /* Save, load (the load replays and verifies every command), undo. */
    CHECK(fm_match_save(m, &save));
    CHECK(fm_match_load(save, &loaded));
    uint64_t reloaded = 0;
    CHECK(fm_match_state_hash(loaded, &reloaded));
    printf("save: %zu bytes; loaded state hash %016" PRIx64 " (%s)\n", strlen(save), reloaded,
           reloaded == after ? "same" : "DIFFERENT");
    if (reloaded != after) rc = 1;
    bool undone = false;
    size_t n = 0;
    CHECK(fm_match_undo(loaded, &undone));
    CHECK(fm_match_command_count(loaded, &n));
    printf("undo: %s, %zu commands in the log now\n", undone ? "yes" : "no", n);

    CHECK(fm_match_view(m, FM_SIDE_B, &view));
    printf("side B's view: %zu bytes of JSON\n", strlen(view));

done:
    free(command);
    fm_string_free(rule);
    fm_string_free(message);
    fm_string_free(view);
    fm_string_free(save);
    fm_string_free(events);
    fm_string_free(legal);
    fm_string_free(json);
    fm_match_free(loaded);
    fm_match_free(m);
    return rc;
}

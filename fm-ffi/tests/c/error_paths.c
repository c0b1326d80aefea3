/*
 * error_paths.c — exercises every error path of the fm C API and checks the contract:
 * the status, the thread-local last error (message and rule), out-parameters untouched
 * and the match unchanged on failure, NULL frees as no-ops, use after free (when the
 * library tracks handles: debug builds), panics and poisoned handles (when built with
 * -DFM_TESTING against a library with the cargo feature `testing`; a caught panic must
 * print nothing on stderr), the last error being per thread, and one handle shared by two
 * threads (against the rules) giving FM_BUSY rather than a crash.
 *
 * Prints one line per failed check and ends with "error_paths: N passed, M failed";
 * exits non-zero if any check failed.
 */

/* dup, dup2, fileno, lseek: to watch stderr while the library handles a panic. */
#define _POSIX_C_SOURCE 200809L

#include "fm.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int passed = 0;
static int failed = 0;

#define EXPECT(cond)                                                                           \
    do {                                                                                       \
        if (cond) {                                                                            \
            passed++;                                                                          \
        } else {                                                                               \
            failed++;                                                                          \
            printf("FAILED %s:%d: %s\n", __FILE__, __LINE__, #cond);                           \
        }                                                                                      \
    } while (0)

/* Expects a status and reports the actual one by name when it differs. */
#define EXPECT_STATUS(call, want)                                                              \
    do {                                                                                       \
        fm_status got_ = (call);                                                               \
        if (got_ == (want)) {                                                                  \
            passed++;                                                                          \
        } else {                                                                               \
            const char *g_ = "?";                                                              \
            fm_status_name(got_, &g_);                                                         \
            failed++;                                                                          \
            printf("FAILED %s:%d: %s returned %s, expected %s\n", __FILE__, __LINE__, #call,   \
                   g_, #want);                                                                 \
        }                                                                                      \
    } while (0)

/* The last error's message and rule, copied into static buffers. */
static char last_message[4096];
static char last_rule[256];

static void read_last_error(void) {
    char *m = NULL, *r = NULL;
    last_message[0] = last_rule[0] = '\0';
    if (fm_last_error_message(&m) == FM_OK && m) {
        snprintf(last_message, sizeof last_message, "%s", m);
    }
    if (fm_last_error_rule(&r) == FM_OK && r) {
        snprintf(last_rule, sizeof last_rule, "%s", r);
    }
    fm_string_free(m);
    fm_string_free(r);
}

static int contains(const char *haystack, const char *needle) {
    return strstr(haystack, needle) != NULL;
}

static fm_match *new_match(void) {
    fm_match *m = NULL;
    if (fm_match_new("system-demo", 7, &m) != FM_OK) {
        printf("FAILED: cannot create a match\n");
        exit(2);
    }
    return m;
}

static uint64_t hash_of(const fm_match *m) {
    uint64_t h = 0;
    fm_match_state_hash(m, &h);
    return h;
}

static void null_handles(void) {
    char *s = (char *)0x1; /* sentinel: must stay untouched */
    size_t n = 12345;
    bool b = true;
    uint64_t h = 99;
    fm_winner w = FM_WINNER_B;
    fm_match *out = (fm_match *)0x1;

    EXPECT_STATUS(fm_match_apply(NULL, "{\"type\":\"done\"}", &s), FM_NULL_ARGUMENT);
    read_last_error();
    EXPECT(contains(last_message, "NULL"));
    EXPECT(strcmp(last_rule, "argument") == 0);
    EXPECT_STATUS(fm_match_pending(NULL, &s), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_legal_commands(NULL, &s), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_state(NULL, &s), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_view(NULL, FM_SIDE_A, &s), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_export(NULL, FM_SIDE_A, &s), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_opening_events(NULL, &s), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_save(NULL, &s), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_undo(NULL, &b), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_clone(NULL, &out), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_legal_count(NULL, &n), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_apply_legal(NULL, 0), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_legal_indices(NULL, NULL, 0, &n), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_apply_index(NULL, 0), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_action_space_size(NULL, &n), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_is_over(NULL, &b), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_winner(NULL, &w), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_playout(NULL, 1, &n), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_state_hash(NULL, &h), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_command_count(NULL, &n), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_clone_with_seed(NULL, 1, &out), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_reseed(NULL, 1), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_rng_state(NULL, &s), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_set_rng_state(NULL, "00"), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_set_chance_mode(NULL, true), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_chance_outcomes(NULL, NULL), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_apply_chance(NULL, 0, &s), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_information_state(NULL, FM_SIDE_A, &s), FM_NULL_ARGUMENT);
    EXPECT(s == (char *)0x1 && n == 12345 && b && h == 99 && w == FM_WINNER_B &&
           out == (fm_match *)0x1);

    /* Freeing NULL is a no-op. */
    EXPECT_STATUS(fm_match_free(NULL), FM_OK);
    EXPECT_STATUS(fm_string_free(NULL), FM_OK);
}

static void null_arguments(void) {
    fm_match *m = new_match();
    fm_match *out = NULL;
    uint64_t before = hash_of(m);

    EXPECT_STATUS(fm_match_new(NULL, 1, &out), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_new("system-demo", 1, NULL), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_from_json(NULL, 1, &out), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_load(NULL, &out), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_clone(m, NULL), FM_NULL_ARGUMENT);
    EXPECT(out == NULL);

    EXPECT_STATUS(fm_match_apply(m, NULL, NULL), FM_NULL_ARGUMENT);
    char *events = NULL;
    EXPECT_STATUS(fm_match_apply(m, NULL, &events), FM_NULL_ARGUMENT);
    read_last_error();
    EXPECT(contains(last_message, "command_json"));
    /* NULL out-parameter: the command must not be applied. */
    EXPECT_STATUS(fm_match_apply(m, "{\"type\":\"done\"}", NULL), FM_NULL_ARGUMENT);
    EXPECT(hash_of(m) == before);
    size_t count = 0;
    fm_match_command_count(m, &count);
    EXPECT(count == 0);

    EXPECT_STATUS(fm_match_pending(m, NULL), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_legal_commands(m, NULL), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_state(m, NULL), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_view(m, FM_SIDE_A, NULL), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_export(m, FM_SIDE_A, NULL), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_view_hash(m, FM_SIDE_A, NULL), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_save(m, NULL), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_undo(m, NULL), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_legal_count(m, NULL), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_legal_indices(m, NULL, 0, NULL), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_legal_indices(m, NULL, 4, &count), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_is_over(m, NULL), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_winner(m, NULL), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_playout(m, 1, NULL), FM_NULL_ARGUMENT);
    EXPECT(hash_of(m) == before);
    EXPECT_STATUS(fm_match_state_hash(m, NULL), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_command_count(m, NULL), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_clone_with_seed(m, 1, NULL), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_rng_state(m, NULL), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_set_rng_state(m, NULL), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_chance_outcomes(m, NULL), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_chance_node_json(m, NULL), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_new_with_chance(NULL, 1, true, &out), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_new_with_chance("no-such", 1, true, &out), FM_UNKNOWN_SCENARIO);
    EXPECT_STATUS(fm_match_apply_chance(m, 0, NULL), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_apply_chance(m, 0, &events), FM_ILLEGAL_COMMAND);
    read_last_error();
    EXPECT(strcmp(last_rule, "chance") == 0);
    EXPECT_STATUS(fm_match_set_rng_state(m, "not a state"), FM_INVALID_ARGUMENT);
    read_last_error();
    EXPECT(contains(last_message, "generator state"));
    EXPECT(hash_of(m) == before);
    EXPECT_STATUS(fm_scenario_names(NULL), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_last_error_message(NULL), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_last_error_rule(NULL), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_status_name(FM_OK, NULL), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_version(NULL), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_has_handle_checks(NULL), FM_NULL_ARGUMENT);
    fm_match_free(m);
}

static void bad_inputs(void) {
    fm_match *m = new_match();
    fm_match *out = NULL;
    char *s = NULL;
    uint64_t before = hash_of(m);

    /* Invalid UTF-8. */
    EXPECT_STATUS(fm_match_new("system\xff-demo", 1, &out), FM_INVALID_UTF8);
    read_last_error();
    EXPECT(contains(last_message, "UTF-8"));
    EXPECT_STATUS(fm_match_apply(m, "{\"type\":\"d\xc3\x28one\"}", &s), FM_INVALID_UTF8);
    EXPECT_STATUS(fm_match_from_json("\xfe", 1, &out), FM_INVALID_UTF8);
    EXPECT_STATUS(fm_match_load("\x80", &out), FM_INVALID_UTF8);

    /* Unknown scenario. */
    EXPECT_STATUS(fm_match_new("no-such-scenario", 1, &out), FM_UNKNOWN_SCENARIO);
    read_last_error();
    EXPECT(contains(last_message, "no-such-scenario"));
    EXPECT(contains(last_message, "system-demo")); /* lists what is built in */
    EXPECT(strcmp(last_rule, "scenario") == 0);

    /* Scenario JSON: malformed, then well-formed but invalid. */
    EXPECT_STATUS(fm_match_from_json("{\"id\": ", 1, &out), FM_INVALID_JSON);
    EXPECT_STATUS(fm_match_from_json("{\"id\": 1}", 1, &out), FM_INVALID_SCENARIO);
    read_last_error();
    EXPECT(strcmp(last_rule, "scenario") == 0);

    /* Command JSON: malformed, not a command, wrong field types. */
    EXPECT_STATUS(fm_match_apply(m, "{\"type\":", &s), FM_INVALID_JSON);
    read_last_error();
    EXPECT(contains(last_message, "command JSON"));
    EXPECT(strcmp(last_rule, "input") == 0);
    EXPECT_STATUS(fm_match_apply(m, "not json at all", &s), FM_INVALID_JSON);
    EXPECT_STATUS(fm_match_apply(m, "{\"type\":\"fly\"}", &s), FM_INVALID_JSON);
    EXPECT_STATUS(fm_match_apply(m, "{\"type\":\"bombard\",\"hex\":7,\"markers\":1}", &s),
                  FM_INVALID_JSON);
    EXPECT_STATUS(fm_match_apply(m, "[]", &s), FM_INVALID_JSON);
    EXPECT_STATUS(fm_match_apply(m, "", &s), FM_INVALID_JSON);
    /* A key given twice is refused, not "the last one wins". */
    EXPECT_STATUS(fm_match_apply(m, "{\"type\":\"attack\",\"type\":\"done\"}", &s),
                  FM_INVALID_JSON);
    read_last_error();
    EXPECT(contains(last_message, "duplicate key"));

    /* Save JSON: malformed, then a tampered save whose replay diverges. */
    EXPECT_STATUS(fm_match_load("{", &out), FM_INVALID_JSON);
    read_last_error();
    EXPECT(strcmp(last_rule, "save") == 0);
    EXPECT_STATUS(fm_match_load("{\"format\":1}", &out), FM_INVALID_JSON);
    read_last_error();
    EXPECT(contains(last_message, "format 1")); /* and what to do about it */
    EXPECT(contains(last_message, "start a new match"));

    size_t played = 0;
    fm_match *c = NULL;
    EXPECT_STATUS(fm_match_clone(m, &c), FM_OK);
    EXPECT_STATUS(fm_match_playout(c, 3, &played), FM_OK);
    char *save = NULL;
    EXPECT_STATUS(fm_match_save(c, &save), FM_OK);
    fm_match_free(c);
    char *at = save ? strstr(save, "\"hash\":") : NULL;
    EXPECT(at != NULL);
    if (at) {
        /* Change the first hex digit of the first recorded state hash ("hash":"…"). */
        at += strlen("\"hash\":");
        if (*at == '"') at++;
        *at = *at == '0' ? '1' : '0';
        EXPECT_STATUS(fm_match_load(save, &out), FM_INVALID_SAVE);
        read_last_error();
        EXPECT(contains(last_message, "diverges"));
        EXPECT(strcmp(last_rule, "save") == 0);
    }
    fm_string_free(save);

    /* A side out of range, an unknown status code. */
    EXPECT_STATUS(fm_match_view(m, 7, &s), FM_INVALID_ARGUMENT);
    EXPECT_STATUS(fm_match_export(m, 7, &s), FM_INVALID_ARGUMENT);
    /* A spectator is a viewer, not the referee nor a player with a record. */
    EXPECT_STATUS(fm_match_view(m, FM_SIDE_NONE, &s), FM_INVALID_ARGUMENT);
    EXPECT_STATUS(fm_match_export(m, FM_SIDE_SPECTATOR, &s), FM_INVALID_ARGUMENT);
    const char *name = NULL;
    EXPECT_STATUS(fm_status_name(999, &name), FM_INVALID_ARGUMENT);
    EXPECT(name == NULL);
    EXPECT_STATUS(fm_status_name(FM_POISONED, &name), FM_OK);
    EXPECT(name && strcmp(name, "FM_POISONED") == 0);
    EXPECT_STATUS(fm_status_name(FM_BUSY, &name), FM_OK);
    EXPECT(name && strcmp(name, "FM_BUSY") == 0);

    EXPECT(out == NULL && s == NULL);
    EXPECT(hash_of(m) == before);
    fm_match_free(m);
}

static void illegal_commands(void) {
    fm_match *m = new_match();
    char *s = NULL;
    uint64_t before = hash_of(m);

    /* Out of sequence: set-up waits for units to be placed. */
    EXPECT_STATUS(fm_match_apply(m, "{\"type\":\"attack\",\"hex\":\"0101\",\"units\":[]}", &s),
                  FM_ILLEGAL_COMMAND);
    read_last_error();
    EXPECT(strcmp(last_rule, "4.1") == 0);
    EXPECT(strncmp(last_message, "4.1: ", 5) == 0); /* the message names the rule */

    EXPECT_STATUS(fm_match_apply(m, "{\"type\":\"place\",\"unit\":\"nobody\",\"hex\":\"0101\"}", &s),
                  FM_ILLEGAL_COMMAND);
    read_last_error();
    EXPECT(strcmp(last_rule, "input") == 0);
    EXPECT(contains(last_message, "nobody"));

    /* Every refused command leaves the match as it was. */
    EXPECT(hash_of(m) == before);
    EXPECT(s == NULL);

    /* The fast path: an index past the end, an action index meaning nothing here. */
    size_t n = 0;
    EXPECT_STATUS(fm_match_legal_count(m, &n), FM_OK);
    EXPECT(n > 0);
    EXPECT_STATUS(fm_match_apply_legal(m, n), FM_INDEX_OUT_OF_RANGE);
    read_last_error();
    EXPECT(strcmp(last_rule, "argument") == 0);
    EXPECT_STATUS(fm_match_apply_index(m, (size_t)-1), FM_ILLEGAL_COMMAND);
    read_last_error();
    EXPECT(strcmp(last_rule, "input") == 0);

    /* A buffer too small: the needed length is written, the buffer is not. */
    size_t buf[1] = {777};
    size_t len = 0;
    EXPECT_STATUS(fm_match_legal_indices(m, buf, 1, &len), FM_BUFFER_TOO_SMALL);
    EXPECT(len == n && buf[0] == 777);
    size_t *all = malloc(len * sizeof *all);
    EXPECT_STATUS(fm_match_legal_indices(m, all, len, &len), FM_OK);
    size_t space = 0;
    EXPECT_STATUS(fm_match_action_space_size(m, &space), FM_OK);
    EXPECT(len == n && all[0] < space);
    free(all);
    EXPECT(hash_of(m) == before);

    /* Nothing to undo is not an error. */
    bool undone = true;
    EXPECT_STATUS(fm_match_undo(m, &undone), FM_OK);
    EXPECT(!undone);

    /* After the end: every command refused by rule 4.1, no legal command. */
    size_t played = 0;
    EXPECT_STATUS(fm_match_playout(m, 11, &played), FM_OK);
    EXPECT(played > 0);
    bool over = false;
    EXPECT_STATUS(fm_match_is_over(m, &over), FM_OK);
    EXPECT(over);
    EXPECT_STATUS(fm_match_apply(m, "{\"type\":\"done\"}", &s), FM_ILLEGAL_COMMAND);
    read_last_error();
    EXPECT(strcmp(last_rule, "4.1") == 0);
    EXPECT(contains(last_message, "over"));
    EXPECT_STATUS(fm_match_legal_count(m, &n), FM_OK);
    EXPECT(n == 0);
    EXPECT_STATUS(fm_match_apply_legal(m, 0), FM_INDEX_OUT_OF_RANGE);
    EXPECT_STATUS(fm_match_playout(m, 11, &played), FM_OK);
    EXPECT(played == 0);
    fm_match_free(m);
}

static void last_error_semantics(void) {
    fm_match *m = new_match();
    char *s = NULL;
    EXPECT_STATUS(fm_match_apply(m, "{\"type\":\"fly\"}", &s), FM_INVALID_JSON);
    read_last_error();
    char first[4096];
    snprintf(first, sizeof first, "%s", last_message);
    /* A successful call leaves the last error unchanged. */
    size_t n = 0;
    EXPECT_STATUS(fm_match_legal_count(m, &n), FM_OK);
    read_last_error();
    EXPECT(strcmp(first, last_message) == 0);
    fm_match_free(m);
}

/* The last error is per thread: a failure on another thread does not show here. */
static void *other_thread(void *arg) {
    (void)arg;
    fm_match *out = NULL;
    char *msg = NULL;
    int ok = fm_match_new("thread-scenario", 1, &out) == FM_UNKNOWN_SCENARIO &&
             fm_last_error_message(&msg) == FM_OK && msg && strstr(msg, "thread-scenario");
    fm_string_free(msg);
    return ok ? (void *)1 : NULL;
}

static void per_thread_errors(void) {
    fm_match *out = NULL;
    EXPECT_STATUS(fm_match_new("main-scenario", 1, &out), FM_UNKNOWN_SCENARIO);
    pthread_t t;
    void *result = NULL;
    EXPECT(pthread_create(&t, NULL, other_thread, NULL) == 0);
    EXPECT(pthread_join(t, &result) == 0);
    EXPECT(result == (void *)1);
    read_last_error();
    EXPECT(contains(last_message, "main-scenario"));
    EXPECT(!contains(last_message, "thread-scenario"));
}

/* One handle used by two threads at once (against the rules): every call gets a status
 * (FM_BUSY when the other thread holds the handle), nothing crashes, and the handle stays
 * usable. */
struct shared {
    fm_match *m;
    int bad; /* calls that returned a status outside the expected ones */
};

static void *hammer(void *arg) {
    struct shared *sh = arg;
    for (int i = 0; i < 2000; i++) {
        size_t n = 0;
        uint64_t h = 0;
        fm_status st;
        switch (i % 3) {
        case 0: st = fm_match_legal_count(sh->m, &n); break;
        case 1: st = fm_match_apply_legal(sh->m, 0); break;
        default: st = fm_match_state_hash(sh->m, &h); break;
        }
        if (st != FM_OK && st != FM_BUSY && st != FM_INDEX_OUT_OF_RANGE) {
            sh->bad++;
        }
    }
    return NULL;
}

static void shared_handle(void) {
    struct shared a = {new_match(), 0};
    struct shared b = {a.m, 0};
    pthread_t t1, t2;
    EXPECT(pthread_create(&t1, NULL, hammer, &a) == 0);
    EXPECT(pthread_create(&t2, NULL, hammer, &b) == 0);
    EXPECT(pthread_join(t1, NULL) == 0);
    EXPECT(pthread_join(t2, NULL) == 0);
    EXPECT(a.bad == 0 && b.bad == 0);
    size_t n = 0;
    EXPECT_STATUS(fm_match_legal_count(a.m, &n), FM_OK);
    EXPECT_STATUS(fm_match_free(a.m), FM_OK);
}

static void use_after_free(void) {
    bool checks = false;
    EXPECT_STATUS(fm_has_handle_checks(&checks), FM_OK);
    if (!checks) {
        printf("use after free: skipped (release build: no handle tracking)\n");
        return;
    }
    fm_match *m = new_match();
    char *s = NULL;
    EXPECT_STATUS(fm_match_pending(m, &s), FM_OK);
    EXPECT_STATUS(fm_match_free(m), FM_OK);
    size_t n = 0;
    EXPECT_STATUS(fm_match_legal_count(m, &n), FM_INVALID_HANDLE);
    read_last_error();
    EXPECT(contains(last_message, "freed"));
    EXPECT(strcmp(last_rule, "handle") == 0);
    EXPECT_STATUS(fm_match_apply(m, "{\"type\":\"done\"}", &s), FM_INVALID_HANDLE);
    EXPECT_STATUS(fm_match_free(m), FM_INVALID_HANDLE); /* double free */
    EXPECT_STATUS(fm_string_free(s), FM_OK);
    EXPECT_STATUS(fm_string_free(s), FM_INVALID_HANDLE); /* double free of a string */
    char local[] = "not from fm";
    EXPECT_STATUS(fm_string_free(local), FM_INVALID_HANDLE);
    EXPECT_STATUS(fm_match_legal_count((const fm_match *)local, &n), FM_INVALID_HANDLE);
}

#if defined(FM_TESTING)
/* Calls fm_testing_panic with the process's stderr (fd 2) sent to a temporary file, and
 * returns how many bytes the call wrote there: a caught panic must print nothing. */
static long stderr_bytes_of_panic(fm_match *m, fm_status *status) {
    FILE *tmp = tmpfile();
    if (!tmp) {
        *status = fm_testing_panic(m);
        return -1;
    }
    fflush(stderr);
    int saved = dup(2);
    dup2(fileno(tmp), 2);
    *status = fm_testing_panic(m);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    long n = (long)lseek(fileno(tmp), 0, SEEK_END);
    fclose(tmp);
    return n;
}
#endif

static void panics(void) {
#if defined(FM_TESTING)
    /* A panic outside any handle: caught, reported, and silent. */
    fm_status st = FM_OK;
    EXPECT(stderr_bytes_of_panic(NULL, &st) == 0);
    EXPECT(st == FM_PANIC);
    read_last_error();
    EXPECT(contains(last_message, "deliberate panic"));
    EXPECT(contains(last_message, "testing.rs:")); /* where, since nothing was printed */
    EXPECT(strcmp(last_rule, "panic") == 0);

    /* A panic while a handle is in use poisons it; other handles are unaffected. */
    fm_match *m = new_match();
    fm_match *other = new_match();
    EXPECT(stderr_bytes_of_panic(m, &st) == 0);
    EXPECT(st == FM_PANIC);
    read_last_error();
    EXPECT(contains(last_message, "poisoned"));
    size_t n = 0;
    char *s = NULL;
    fm_match *c = NULL;
    EXPECT_STATUS(fm_match_legal_count(m, &n), FM_POISONED);
    read_last_error();
    EXPECT(contains(last_message, "poisoned"));
    EXPECT_STATUS(fm_match_apply(m, "{\"type\":\"done\"}", &s), FM_POISONED);
    EXPECT_STATUS(fm_match_clone(m, &c), FM_POISONED);
    EXPECT_STATUS(fm_match_save(m, &s), FM_POISONED);
    EXPECT_STATUS(fm_testing_panic(m), FM_POISONED);
    EXPECT(s == NULL && c == NULL);
    EXPECT_STATUS(fm_match_legal_count(other, &n), FM_OK);
    EXPECT_STATUS(fm_match_free(m), FM_OK); /* a poisoned handle can be freed */
    fm_match_free(other);
#else
    printf("panics: skipped (built without FM_TESTING)\n");
#endif
}

/* The factored action space: NULLs, bad sequences (rule "input"), a small buffer (its
 * length alone written), a refused sequence changing nothing. */
static void factored_errors(void) {
    size_t sizes[3] = {0, 0, 0}, n = 0, flat = 0;
    unsigned char mask[4] = {7, 7, 7, 7};
    bool complete = true;
    EXPECT_STATUS(fm_match_factored_sizes(NULL, sizes, 3, &n), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_factored_options(NULL, NULL, 0, sizes, 3, &n), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_factored_mask(NULL, NULL, 0, mask, 4, &n), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_factored_complete(NULL, NULL, 0, &complete), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_factored_to_flat(NULL, NULL, 0, &flat), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_flat_to_factored(NULL, 0, sizes, 3, &n), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_apply_factored(NULL, NULL, 0), FM_NULL_ARGUMENT);
    fm_match *m = new_match();
    uint64_t before = hash_of(m);
    EXPECT_STATUS(fm_match_factored_sizes(m, sizes, 3, &n), FM_OK);
    EXPECT(n == 3 && sizes[0] > 11 && sizes[2] == 64);
    size_t head[1] = {sizes[0]};
    EXPECT_STATUS(fm_match_factored_to_flat(m, head, 1, &flat), FM_INVALID_ARGUMENT);
    read_last_error();
    EXPECT(strcmp(last_rule, "input") == 0);
    EXPECT(contains(last_message, "step 0"));
    head[0] = 11; /* the first unit's placement: a hex is missing */
    EXPECT_STATUS(fm_match_factored_to_flat(m, head, 1, &flat), FM_INVALID_ARGUMENT);
    read_last_error();
    EXPECT(contains(last_message, "incomplete"));
    EXPECT_STATUS(fm_match_factored_complete(m, head, 1, &complete), FM_OK);
    EXPECT(!complete);
    EXPECT_STATUS(fm_match_factored_options(m, head, 1, NULL, 0, NULL), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_factored_mask(m, NULL, 0, mask, 4, &n), FM_BUFFER_TOO_SMALL);
    EXPECT(n == sizes[0] && mask[0] == 7 && mask[3] == 7);
    EXPECT_STATUS(fm_match_apply_factored(m, head, 1), FM_ILLEGAL_COMMAND);
    read_last_error();
    EXPECT(strcmp(last_rule, "input") == 0);
    EXPECT(hash_of(m) == before);
    EXPECT_STATUS(fm_match_free(m), FM_OK);
}

/* The queries of issue 19: NULL handles and out-parameters, bad sides, bad JSON, small
 * buffers (the needed length alone written), unsupported queries, and no change on any
 * failure. */
static void query_errors(void) {
    char *s = (char *)0x1; /* sentinel: must stay untouched */
    size_t n = 12345, len = 0;
    bool found = true;
    fm_side side = 77;
    fm_result result = FM_RESULT_DRAW;
    fm_match *out = (fm_match *)0x1;
    float obs[4] = {5, 5, 5, 5};
    char kind[32];
    memset(kind, 'x', sizeof kind);

    EXPECT_STATUS(fm_match_apply_legal_events(NULL, 0, &s), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_apply_index_events(NULL, 0, &s), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_result(NULL, &result), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_decider(NULL, &side), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_decision_kind(NULL, kind, sizeof kind, &len), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_command_json_at(NULL, 0, &s), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_index_command(NULL, 0, &s), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_index_of(NULL, "{}", &found, &n), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_last_events(NULL, FM_SIDE_NONE, &s), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_explain(NULL, "{}", &s), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_reachable(NULL, "u", &s), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_odds(NULL, FM_SIDE_A, "{}", &s), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_svg(NULL, FM_SIDE_NONE, "{}", &s), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_observation_spec(NULL, &s), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_observation_size(NULL, &n), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_observation(NULL, FM_SIDE_A, obs, 4, &len), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_determinized(NULL, FM_SIDE_A, 1, &out), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_system(NULL, &s), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_scenario(NULL, &s), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_outcome(NULL, &s), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_log(NULL, FM_SIDE_NONE, 0, &s), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_log_words(NULL, FM_SIDE_NONE, 0, &s), FM_NULL_ARGUMENT);
    {
        uint64_t seed = 5;
        EXPECT_STATUS(fm_match_seed(NULL, &seed), FM_NULL_ARGUMENT);
        EXPECT(seed == 5);
    }
    EXPECT(s == (char *)0x1 && n == 12345 && found && side == 77);
    EXPECT(result == FM_RESULT_DRAW && out == (fm_match *)0x1 && obs[0] == 5);

    fm_match *m = new_match();
    uint64_t before = hash_of(m);
    size_t count = 0;
    fm_match_legal_count(m, &count);
    /* NULL inputs and out-parameters. */
    EXPECT_STATUS(fm_match_apply_legal_events(m, 0, NULL), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_apply_index_events(m, 0, NULL), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_result(m, NULL), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_decider(m, NULL), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_decision_kind(m, kind, sizeof kind, NULL), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_decision_kind(m, NULL, sizeof kind, &len), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_command_json_at(m, 0, NULL), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_index_command(m, 0, NULL), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_index_of(m, NULL, &found, &n), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_index_of(m, "{}", &found, NULL), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_last_events(m, FM_SIDE_A, NULL), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_explain(m, NULL, &s), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_explain(m, "{\"type\":\"done\"}", NULL), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_reachable(m, NULL, &s), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_odds(m, FM_SIDE_A, NULL, &s), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_svg(m, FM_SIDE_NONE, NULL, &s), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_svg(m, FM_SIDE_NONE, "{}", NULL), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_observation_spec(m, NULL), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_observation_size(m, NULL), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_observation(m, FM_SIDE_A, NULL, 4, &len), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_observation(m, FM_SIDE_A, obs, 4, NULL), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_determinized(m, FM_SIDE_A, 1, NULL), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_system(m, NULL), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_scenario(m, NULL), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_seed(m, NULL), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_outcome(m, NULL), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_log(m, FM_SIDE_NONE, 0, NULL), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_log(m, 4, 0, &s), FM_INVALID_ARGUMENT);
    EXPECT_STATUS(fm_match_log_words(m, FM_SIDE_SPECTATOR, 0, NULL), FM_NULL_ARGUMENT);
    EXPECT_STATUS(fm_match_log_words(m, 4, 0, &s), FM_INVALID_ARGUMENT);
    /* Bad sides: FM_SIDE_NONE only where it means the referee. */
    EXPECT_STATUS(fm_match_last_events(m, 4, &s), FM_INVALID_ARGUMENT);
    EXPECT_STATUS(fm_match_svg(m, 4, "{}", &s), FM_INVALID_ARGUMENT);
    EXPECT_STATUS(fm_match_odds(m, FM_SIDE_NONE, "{\"hex\":\"0101\"}", &s), FM_INVALID_ARGUMENT);
    EXPECT_STATUS(fm_match_observation(m, FM_SIDE_NONE, obs, 4, &len), FM_INVALID_ARGUMENT);
    EXPECT_STATUS(fm_match_determinized(m, FM_SIDE_NONE, 1, &out), FM_INVALID_ARGUMENT);
    read_last_error();
    EXPECT(strcmp(last_rule, "argument") == 0);
    /* Bad JSON and bad UTF-8. */
    EXPECT_STATUS(fm_match_explain(m, "{\"type\":", &s), FM_INVALID_JSON);
    EXPECT_STATUS(fm_match_explain(m, "{\"type\":\"fly\"}", &s), FM_INVALID_JSON);
    EXPECT_STATUS(fm_match_index_of(m, "[1,2]", &found, &n), FM_INVALID_JSON);
    EXPECT_STATUS(fm_match_odds(m, FM_SIDE_A, "{\"hex\":\"0101\",\"hex\":\"0102\"}", &s),
                  FM_INVALID_JSON);
    EXPECT_STATUS(fm_match_odds(m, FM_SIDE_A, "{\"hex\":\"0101\",\"bogus\":1}", &s),
                  FM_INVALID_JSON);
    read_last_error();
    EXPECT(contains(last_message, "bogus"));
    EXPECT_STATUS(fm_match_svg(m, FM_SIDE_A, "{\"hex_size\":1000}", &s), FM_INVALID_JSON);
    read_last_error();
    EXPECT(contains(last_message, "hex_size") && strcmp(last_rule, "input") == 0);
    EXPECT_STATUS(fm_match_svg(m, FM_SIDE_A, "{\"radii\":true}", &s), FM_INVALID_JSON);
    EXPECT_STATUS(fm_match_reachable(m, "\xff", &s), FM_INVALID_UTF8);
    EXPECT_STATUS(fm_match_reachable(m, "nobody", &s), FM_ILLEGAL_COMMAND);
    read_last_error();
    EXPECT(strcmp(last_rule, "input") == 0 && contains(last_message, "nobody"));
    /* Out of range: the i-th legal command, an index that stands for nothing. */
    EXPECT_STATUS(fm_match_command_json_at(m, count, &s), FM_INDEX_OUT_OF_RANGE);
    EXPECT_STATUS(fm_match_apply_legal_events(m, count, &s), FM_INDEX_OUT_OF_RANGE);
    EXPECT_STATUS(fm_match_index_command(m, (size_t)-1, &s), FM_INVALID_ARGUMENT);
    EXPECT_STATUS(fm_match_apply_index_events(m, (size_t)-1, &s), FM_ILLEGAL_COMMAND);
    /* Buffers too small: the needed length alone. */
    len = 0;
    EXPECT_STATUS(fm_match_decision_kind(m, kind, 1, &len), FM_BUFFER_TOO_SMALL);
    EXPECT(len > 1 && kind[0] == 'x');
    EXPECT_STATUS(fm_match_decision_kind(m, NULL, 0, &len), FM_BUFFER_TOO_SMALL);
    EXPECT_STATUS(fm_match_decision_kind(m, kind, len, &len), FM_OK);
    {
        char *pending = NULL, want[64];
        EXPECT_STATUS(fm_match_pending(m, &pending), FM_OK);
        snprintf(want, sizeof want, "\"kind\":\"%s\"", kind);
        EXPECT(pending && contains(pending, want) && strlen(kind) + 1 == len);
        fm_string_free(pending);
    }
    len = 0;
    EXPECT_STATUS(fm_match_observation(m, FM_SIDE_B, obs, 4, &len), FM_BUFFER_TOO_SMALL);
    EXPECT(len > 4 && obs[0] == 5 && obs[3] == 5);
    EXPECT(s == (char *)0x1 && found && out == (fm_match *)0x1);
    EXPECT(hash_of(m) == before);
    size_t applied = 1;
    fm_match_command_count(m, &applied);
    EXPECT(applied == 0);

    /* Huzzah!: no reachable hexes (FM_UNSUPPORTED, rule "unsupported"); its observation
       is longer than 4 floats. */
    fm_match *h = NULL;
    EXPECT_STATUS(fm_match_new("huzzah-encounter", 1, &h), FM_OK);
    EXPECT_STATUS(fm_match_reachable(h, "x", &s), FM_UNSUPPORTED);
    read_last_error();
    EXPECT(strcmp(last_rule, "unsupported") == 0 && contains(last_message, "reachable"));
    EXPECT_STATUS(fm_match_observation_size(h, &n), FM_OK);
    len = 0;
    EXPECT_STATUS(fm_match_observation(h, FM_SIDE_A, obs, 4, &len), FM_BUFFER_TOO_SMALL);
    EXPECT(len == n && n > 4);
    EXPECT_STATUS(fm_match_svg(h, FM_SIDE_A, "{\"hex_size\":30}", &s), FM_INVALID_JSON);
    EXPECT_STATUS(fm_match_odds(h, FM_SIDE_A, "{\"fire\":{}}", &s), FM_INVALID_JSON);
    const char *name = NULL;
    EXPECT_STATUS(fm_status_name(FM_UNSUPPORTED, &name), FM_OK);
    EXPECT(name && strcmp(name, "FM_UNSUPPORTED") == 0);
    EXPECT(s == (char *)0x1 && obs[0] == 5);
    EXPECT_STATUS(fm_match_free(h), FM_OK);
    EXPECT_STATUS(fm_match_free(m), FM_OK);
}

int main(void) {
    null_handles();
    null_arguments();
    bad_inputs();
    illegal_commands();
    last_error_semantics();
    per_thread_errors();
    shared_handle();
    use_after_free();
    panics();
    factored_errors();
    query_errors();
    printf("error_paths: %d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}

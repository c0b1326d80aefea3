/*
 * random_game.c — plays one full game of a built-in scenario through the fast path of
 * the fm C API (no JSON): legal-command count, apply the i-th, until the game is over.
 * Then plays a second game from the same start with fm_match_playout, and prints a
 * summary of both.
 *
 *   random_game [SEED]        (default seed 1)
 *
 * Plays suez-1916 if the library has it, otherwise system-demo.
 */

#include "fm.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* Prints the failed call, the status name and the library's message. */
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

/* splitmix64: the example's own generator for picking commands. */
static uint64_t next_random(uint64_t *state) {
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static const char *winner_name(fm_winner w, bool over) {
    if (!over) return "none (game not over)";
    switch (w) {
    case FM_WINNER_A: return "side A";
    case FM_WINNER_B: return "side B";
    default: return "draw";
    }
}

int main(int argc, char **argv) {
    uint64_t seed = argc > 1 ? strtoull(argv[1], NULL, 10) : 1;
    int rc = 0;
    fm_match *game = NULL;
    fm_match *start = NULL;
    char *names = NULL;
    char *pending = NULL;

    CHECK(fm_scenario_names(&names));
    printf("built-in scenarios: %s\n", names);

    const char *scenario = "suez-1916";
    fm_status st = fm_match_new(scenario, seed, &game);
    if (st == FM_UNKNOWN_SCENARIO) {
        scenario = "system-demo";
        st = fm_match_new(scenario, seed, &game);
    }
    if (st != FM_OK) {
        rc = report("fm_match_new", st);
        goto done;
    }
    CHECK(fm_match_clone(game, &start));

    /* Game 1: the fast path, one command at a time. */
    uint64_t picker = seed;
    size_t commands = 0, choices = 0, max_choices = 0;
    bool over = false;
    clock_t t0 = clock();
    CHECK(fm_match_is_over(game, &over));
    while (!over) {
        size_t n = 0;
        CHECK(fm_match_legal_count(game, &n));
        if (n == 0) {
            fprintf(stderr, "no legal command although the game is not over\n");
            rc = 1;
            goto done;
        }
        choices += n;
        if (n > max_choices) max_choices = n;
        CHECK(fm_match_apply_legal(game, (size_t)(next_random(&picker) % n)));
        commands++;
        CHECK(fm_match_is_over(game, &over));
    }
    double seconds = (double)(clock() - t0) / CLOCKS_PER_SEC;

    fm_winner winner = FM_WINNER_NONE;
    uint64_t hash = 0;
    size_t logged = 0;
    CHECK(fm_match_winner(game, &winner));
    CHECK(fm_match_state_hash(game, &hash));
    CHECK(fm_match_command_count(game, &logged));
    CHECK(fm_match_pending(game, &pending));

    printf("scenario %s, seed %" PRIu64 "\n", scenario, seed);
    printf("game 1 (fast path): %zu commands, winner: %s, hash %016" PRIx64 "\n", commands,
           winner_name(winner, over), hash);
    printf("  %zu commands in the log, final pending decision %s\n", logged, pending);
    printf("  average %.1f legal commands per decision, at most %zu\n",
           commands ? (double)choices / (double)commands : 0.0, max_choices);
    printf("  %.0f commands per second\n", seconds > 0 ? (double)commands / seconds : 0.0);

    /* Game 2: the same start, played out by the library's random agent. */
    size_t played = 0;
    CHECK(fm_match_playout(start, seed, &played));
    CHECK(fm_match_is_over(start, &over));
    CHECK(fm_match_winner(start, &winner));
    CHECK(fm_match_state_hash(start, &hash));
    printf("game 2 (playout, seed %" PRIu64 "): %zu commands, winner: %s, hash %016" PRIx64 "\n",
           seed, played, winner_name(winner, over), hash);
    printf("result: %s\n", winner_name(winner, over));

done:
    fm_string_free(pending);
    fm_string_free(names);
    fm_match_free(start);
    fm_match_free(game);
    return rc;
}

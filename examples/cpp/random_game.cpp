// random_game.cpp — the C example random_game.c through fm.hpp: one full random game of
// a built-in scenario through the fast path, then a library playout from the same start,
// and a summary. RAII frees every handle and string; errors arrive as fm::Error.
//
//   random_game_cpp [SEED]        (default seed 1)

#include "fm.hpp"

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>

namespace {

// splitmix64: the example's own generator for picking commands.
std::uint64_t next_random(std::uint64_t &state) {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

const char *describe(const fm::Match &m) {
    if (!m.is_over()) return "none (game not over)";
    switch (m.winner()) {
    case fm::Winner::A: return "side A";
    case fm::Winner::B: return "side B";
    default: return "draw";
    }
}

// suez-1916 when the library has it, system-demo until then.
fm::Match open(std::string &scenario, std::uint64_t seed) {
    try {
        scenario = "suez-1916";
        return fm::Match::builtin(scenario, seed);
    } catch (const fm::Error &e) {
        if (e.status() != FM_UNKNOWN_SCENARIO) throw;
        scenario = "system-demo";
        return fm::Match::builtin(scenario, seed);
    }
}

}  // namespace

int main(int argc, char **argv) {
    std::uint64_t seed = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1;
    try {
        std::cout << "fm " << fm::version() << ", built-in scenarios: " << fm::scenario_names()
                  << "\n";
        std::string scenario;
        fm::Match game = open(scenario, seed);
        fm::Match start = game;  // a copy: fm_match_clone

        std::uint64_t picker = seed;
        std::size_t commands = 0;
        while (!game.is_over()) {
            std::size_t n = game.legal_count();
            game.apply_legal(static_cast<std::size_t>(next_random(picker) % n));
            ++commands;
        }
        std::printf("scenario %s, seed %" PRIu64 "\n", scenario.c_str(), seed);
        std::printf("game 1 (fast path): %zu commands, winner: %s, hash %016" PRIx64 "\n",
                    commands, describe(game), game.state_hash());
        std::cout << "  pending " << game.pending() << "\n";

        std::size_t played = start.playout(seed);
        std::printf("game 2 (playout, seed %" PRIu64 "): %zu commands, winner: %s, hash %016" PRIx64
                    "\n",
                    seed, played, describe(start), start.state_hash());
        std::printf("result: %s\n", describe(start));
        return 0;
    } catch (const fm::Error &e) {
        std::cerr << "error (rule " << e.rule() << "): " << e.what() << "\n";
        return 1;
    }
}

// factored_game.cpp — the factored action space through fm.hpp: a whole game of
// system-demo and the start of one of huzzah-firefight played by masks (each step a random option of its
// mask), each sequence's action index legal and converted back, and the errors of bad
// sequences thrown as fm::Error with rule "input". Run by scripts/test_ffi.sh.
//
// Prints "factored_game: N commands, ok" per scenario; exits non-zero on a failure.

#include "fm.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace {

int failures = 0;

void expect(bool cond, const char *what) {
    if (!cond) {
        ++failures;
        std::printf("FAILED: %s\n", what);
    }
}

// Plays `scenario` by masks, to its end or for `limit` commands.
std::size_t play(const std::string &scenario, std::uint64_t seed, std::size_t limit) {
    fm::Match m = fm::Match::builtin(scenario, seed);
    const std::vector<std::size_t> sizes = m.factored_sizes();
    std::vector<std::vector<std::uint8_t>> masks(sizes.size());
    std::uint64_t picker = seed;
    std::size_t commands = 0;
    while (!m.is_over() && commands < limit) {
        std::vector<std::size_t> seq;
        do {
            const std::size_t k = seq.size();
            m.factored_mask(seq, masks[k]);
            expect(masks[k].size() == sizes[k], "a mask of the step's size");
            std::vector<std::size_t> options;
            for (std::size_t v = 0; v < masks[k].size(); ++v) {
                if (masks[k][v] == 1) options.push_back(v);
            }
            expect(options == m.factored_options(seq), "the mask lists the options");
            expect(!options.empty(), "every step has an option");
            if (options.empty()) return commands;
            picker = picker * 6364136223846793005ULL + 1442695040888963407ULL;
            seq.push_back(options[(picker >> 33) % options.size()]);
        } while (!m.factored_complete(seq));
        const std::size_t flat = m.factored_to_flat(seq);
        expect(m.flat_to_factored(flat) == seq, "the conversions round-trip");
        const std::vector<std::size_t> legal = m.legal_indices();
        expect(std::binary_search(legal.begin(), legal.end(), flat), "a legal index");
        m.apply_factored(seq);
        ++commands;
    }
    expect(m.is_over() || commands == limit, "the game ends within its limit");
    if (m.is_over()) {
        expect(m.factored_options({}).empty(), "no option once over");
    }
    return commands;
}

void errors() {
    fm::Match m = fm::Match::builtin("system-demo", 1);
    const std::uint64_t before = m.state_hash();
    const std::vector<std::size_t> sizes = m.factored_sizes();
    bool thrown = false;
    try {
        m.factored_to_flat({sizes[0]});
    } catch (const fm::Error &e) {
        thrown = e.status() == FM_INVALID_ARGUMENT && e.rule() == "input";
    }
    expect(thrown, "a head past the step: FM_INVALID_ARGUMENT, rule input");
    thrown = false;
    try {
        m.apply_factored({11});  // a placement without its hex
    } catch (const fm::Error &e) {
        thrown = e.status() == FM_ILLEGAL_COMMAND && e.rule() == "input";
    }
    expect(thrown, "an incomplete sequence is refused");
    expect(m.state_hash() == before, "a refused sequence changes nothing");
}

}  // namespace

int main() {
    try {
        // A whole system-demo game (Fire & Movement's factorization), then 40 commands
        // of huzzah-firefight (the default one): valgrind runs this too.
        const std::size_t demo = play("system-demo", 7, 20000);
        std::printf("factored_game: system-demo, %zu commands\n", demo);
        expect(demo > 10, "a whole game");
        const std::size_t hz = play("huzzah-firefight", 7, 40);
        std::printf("factored_game: huzzah-firefight, %zu commands\n", hz);
        expect(hz == 40, "40 commands");
        errors();
    } catch (const fm::Error &e) {
        std::printf("FAILED: unexpected fm::Error: %s\n", e.what());
        ++failures;
    }
    std::printf("factored_game: %s\n", failures == 0 ? "ok" : "FAILED");
    return failures == 0 ? 0 : 1;
}

// json_commands.cpp — the C example json_commands.c through fm.hpp: a few JSON commands
// and their events, a refused command caught as fm::Error naming the rule, save, load,
// undo and a side's view.
//
//   json_commands_cpp [SEED] [COMMANDS]        (defaults: seed 1, 6 commands)

#include "fm.hpp"

#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <string>

namespace {

// The first element of a JSON array of objects, or "" if it is empty. Enough JSON for
// this example: it tracks strings and nesting, nothing more.
std::string first_object(const std::string &array) {
    std::size_t start = array.find('{');
    if (start == std::string::npos) return "";
    int depth = 0;
    bool in_string = false;
    for (std::size_t i = start; i < array.size(); ++i) {
        char c = array[i];
        if (in_string) {
            if (c == '\\') ++i;
            else if (c == '"') in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '{' || c == '[') {
            ++depth;
        } else if ((c == '}' || c == ']') && --depth == 0) {
            return array.substr(start, i - start + 1);
        }
    }
    return "";
}

}  // namespace

int main(int argc, char **argv) {
    std::uint64_t seed = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1;
    int count = argc > 2 ? std::atoi(argv[2]) : 6;
    try {
        fm::Match m = fm::Match::builtin("system-demo", seed);
        std::cout << "opening events: " << m.opening_events() << "\n";
        for (int i = 0; i < count; ++i) {
            std::cout << "\npending: " << m.pending() << "\n";
            std::string command = first_object(m.legal_commands());
            if (command.empty()) break;  // game over
            std::cout << "apply " << command << "\n  -> events " << m.apply(command) << "\n";
        }

        std::uint64_t before = m.state_hash();
        try {
            m.apply(R"({"type":"move","unit":"nobody","path":[]})");
            std::cerr << "an illegal command was accepted\n";
            return 1;
        } catch (const fm::Error &e) {
            std::cout << "\nrefused: rule \"" << e.rule() << "\": " << e.what() << "\n";
        }
        std::cout << "state unchanged: " << (before == m.state_hash() ? "yes" : "NO") << "\n";

        fm::Match loaded = fm::Match::load(m.save());
        std::cout << "loaded: same state: " << (loaded.state_hash() == m.state_hash() ? "yes" : "NO")
                  << "\n";
        bool undone = loaded.undo();
        std::cout << "undo: " << (undone ? "yes" : "no") << ", " << loaded.command_count()
                  << " commands in the log now\n";
        std::cout << "side B's view: " << m.view(fm::Side::B).size() << " bytes of JSON\n";
        return before == m.state_hash() ? 0 : 1;
    } catch (const fm::Error &e) {
        std::cerr << "error (rule " << e.rule() << "): " << e.what() << "\n";
        return 1;
    }
}

// consumer.cpp — a C++ program built against an installed fm through CMake's
// fm::fm_static (and `pkg-config --cflags --libs fm`): one AI-free game, each move
// applied with its events returned.
#include <fm.hpp>
#include <cstdio>

int main() {
    fm::Match m = fm::Match::builtin("system-demo", 4);
    std::size_t moves = 0;
    while (m.result() == fm::Result::Ongoing) {
        std::string events = m.apply_legal_events(moves % m.legal_count());
        if (events.empty() || events[0] != '[') return 1;
        moves++;
    }
    std::printf("consumer_cpp: fm %s, %zu commands, over: %s\n", fm::version().c_str(), moves,
                m.decision_kind().c_str());
    return fm::version() == FM_VERSION_STRING ? 0 : 1;
}

// queries.cpp — the queries of fm.hpp (issue 19) from C++: an AI move applied and its
// events returned in one call, the i-th legal command's JSON and back, the typed
// answers (result, decider, decision kind), explain, reachable, odds, the picture, the
// observation into a reused buffer, a determinized match, FM_UNSUPPORTED from Huzzah!,
// and one fm::Match shared by threads calling const methods (its mutex: no FM_BUSY).
//
// Run by scripts/test_ffi.sh (also under valgrind, and built with
// -fsanitize=address,undefined where the compiler has them). Prints one line per failed
// check and ends with "queries: N passed, M failed".

#include "fm.hpp"

#include <atomic>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

static int passed = 0;
static int failed = 0;

#define EXPECT(cond)                                                              \
    do {                                                                          \
        if (cond) {                                                               \
            passed++;                                                             \
        } else {                                                                  \
            failed++;                                                             \
            std::printf("FAILED %s:%d: %s\n", __FILE__, __LINE__, #cond);         \
        }                                                                         \
    } while (0)

// Runs f, expecting an fm::Error with this status (and rule, if given).
template <class F>
static void expect_error(F f, fm_status status, const char *rule, int line) {
    try {
        f();
        failed++;
        std::printf("FAILED line %d: no error\n", line);
    } catch (const fm::Error &e) {
        if (e.status() == status && (rule == nullptr || e.rule() == rule)) {
            passed++;
        } else {
            failed++;
            std::printf("FAILED line %d: %s (rule %s)\n", line, e.what(), e.rule().c_str());
        }
    }
}
#define EXPECT_ERROR(expr, status, rule) expect_error([&] { (void)(expr); }, status, rule, __LINE__)

static bool has(const std::string &s, const std::string &part) {
    return s.find(part) != std::string::npos;
}

// The fast path with events, and commands <-> indices.
static void play_and_animate() {
    fm::Match m = fm::Match::builtin("system-demo", 5);
    for (int k = 0; k < 40 && !m.is_over(); k++) {
        std::size_t n = m.legal_count();
        std::size_t i = static_cast<std::size_t>(k * 7) % n;
        std::string cmd = m.command_json_at(i);
        std::vector<std::size_t> idx = m.legal_indices();
        std::size_t index = 0;
        EXPECT(m.index_of(cmd, index) && index == idx[i]);
        EXPECT(m.index_command(idx[i]) == cmd);
        fm::Match copy = m;
        std::string want = copy.apply(cmd);
        std::string got = k % 2 ? m.apply_legal_events(i) : m.apply_index_events(idx[i]);
        EXPECT(got == want);
        EXPECT(m.last_events() == got);
        EXPECT(m.state_hash() == copy.state_hash());
    }
    std::size_t untouched = 42;
    EXPECT(!m.index_of(R"({"type":"move","unit":"nobody","path":["0101"]})", untouched));
    EXPECT(untouched == 42);
    EXPECT_ERROR(m.index_of("{\"type\":\"fly\"}", untouched), FM_INVALID_JSON, "input");
    EXPECT_ERROR(m.command_json_at(m.legal_count()), FM_INDEX_OUT_OF_RANGE, "argument");
    EXPECT_ERROR(m.apply_index_events(static_cast<std::size_t>(-1)), FM_ILLEGAL_COMMAND, "input");
}

// Result, decider and the decision's kind, without JSON.
static void typed_answers() {
    fm::Match m = fm::Match::builtin("system-demo", 3);
    EXPECT(m.result() == fm::Result::Ongoing);
    fm::Side d = m.decider();
    EXPECT(d == fm::Side::A || d == fm::Side::B);
    EXPECT(has(m.pending(), "\"kind\":\"" + m.decision_kind() + "\""));
    m.playout(3);
    EXPECT(m.decision_kind() == "game_over");
    EXPECT(m.decider() == fm::Side::None);
    fm::Result r = m.result();
    fm::Winner w = m.winner();
    EXPECT((r == fm::Result::AWon && w == fm::Winner::A) ||
           (r == fm::Result::BWon && w == fm::Winner::B) ||
           (r == fm::Result::Draw && w == fm::Winner::None));
}

// explain, reachable, odds, svg, the observation, determinized.
static void queries() {
    fm::Match m = fm::Match::builtin("system-demo", 6);
    for (int k = 0; k < 30; k++) m.apply_legal(static_cast<std::size_t>(k) % m.legal_count());
    std::string legal = m.command_json_at(0);
    EXPECT(m.explain(legal) == "null");
    std::string why = m.explain(R"({"type":"move","unit":"nobody","path":["0101"]})");
    EXPECT(has(why, "\"rule\":\"input\""));
    EXPECT_ERROR(m.explain("{"), FM_INVALID_JSON, "input");
    EXPECT_ERROR(m.reachable("nobody"), FM_ILLEGAL_COMMAND, "input");
    EXPECT_ERROR(m.odds(fm::Side::A, R"({"hex":"0101","typo":1})"), FM_INVALID_JSON, "input");
    EXPECT_ERROR(m.odds(fm::Side::None, R"({"hex":"0101"})"), FM_INVALID_ARGUMENT, "argument");
    std::string referee = m.svg();
    EXPECT(referee.compare(0, 4, "<svg") == 0);
    EXPECT(m.svg(fm::Side::A, R"({"hex_size":20,"panel":false})").compare(0, 4, "<svg") == 0);
    EXPECT_ERROR(m.svg(fm::Side::A, R"({"scale":3})"), FM_INVALID_JSON, "input");
    std::size_t size = m.observation_size();
    EXPECT(has(m.observation_spec(), "\"shape\":["));
    std::vector<float> obs;
    m.observation(fm::Side::A, obs);
    EXPECT(obs.size() == size);
    const float *before = obs.data();
    m.observation(fm::Side::B, obs);  // reused: no new allocation
    EXPECT(obs.data() == before && obs.size() == size);
    bool in_range = true;
    for (float x : obs) in_range = in_range && x >= 0.0f && x <= 1.0f;
    EXPECT(in_range);
    for (fm::Side s : {fm::Side::A, fm::Side::B}) {
        fm::Match d = m.determinized(s, 9);
        EXPECT(d.view_hash(s) == m.view_hash(s));
        EXPECT(d.svg(s) == m.svg(s));
        std::vector<float> od;
        d.observation(s, od);
        m.observation(s, obs);
        EXPECT(od == obs);
    }
    EXPECT_ERROR(m.determinized(fm::Side::None, 1), FM_INVALID_ARGUMENT, "argument");
    EXPECT(m.system() == "fm" && m.seed() == 6 && m.outcome() == "null");
    EXPECT(has(m.scenario(), "\"id\":\"system-demo\""));
    EXPECT(has(m.log(fm::Side::None, 29), "\"hash\":"));
    EXPECT(has(m.log(fm::Side::A, 29), "\"view_hash\":"));
    EXPECT(m.log(fm::Side::None, 30) == "[]");

    fm::Match h = fm::Match::builtin("huzzah-encounter", 1);
    EXPECT(h.system() == "huzzah");
    EXPECT_ERROR(h.reachable("x"), FM_UNSUPPORTED, "unsupported");
    std::vector<float> hobs;
    h.observation(fm::Side::B, hobs);
    EXPECT(hobs.size() == h.observation_size() && hobs.size() > 1000);
    EXPECT(h.svg(fm::Side::None, R"({"scale":2,"labels":false})").compare(0, 4, "<svg") == 0);
    EXPECT_ERROR(h.odds(fm::Side::A, R"({"morale":{"unit":"nobody"}})"), FM_ILLEGAL_COMMAND,
                 "input");
}

// One Match shared by threads calling const methods: every call takes its mutex, so
// none fails with FM_BUSY (the C handle alone would refuse concurrent calls).
static void shared_between_threads() {
    fm::Match m = fm::Match::builtin("system-demo", 11);
    std::atomic<int> errors(0), calls(0);
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; t++) {
        threads.emplace_back([&m, &errors, &calls, t] {
            std::vector<float> obs;
            for (int k = 0; k < 150; k++) {
                try {
                    switch ((k + t) % 5) {
                    case 0: (void)m.legal_indices(); break;
                    case 1: (void)m.legal_count(); break;
                    case 2: (void)m.decision_kind(); break;
                    case 3: m.observation(t % 2 ? fm::Side::A : fm::Side::B, obs); break;
                    default: (void)m.command_json_at(0); break;
                    }
                    calls++;
                } catch (const fm::Error &) {
                    errors++;
                }
            }
        });
    }
    for (std::thread &th : threads) th.join();
    EXPECT(errors.load() == 0);
    EXPECT(calls.load() == 600);
}

int main() {
    EXPECT(fm::version() == FM_VERSION_STRING);
    play_and_animate();
    typed_answers();
    queries();
    shared_between_threads();
    std::printf("queries: %d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}

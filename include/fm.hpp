// fm.hpp — a small header-only C++ wrapper over fm.h, the C API of fm (a rules engine for
// the Fire & Movement wargame system). C++11 or later.
//
//   fm::Match m = fm::Match::builtin("system-demo", 42);
//   while (!m.is_over()) m.apply_legal(pick(m.legal_count()));
//   std::string events = m.apply(R"({"type":"done"})");   // throws fm::Error if refused
//
// - fm::Match owns one fm_match handle (RAII): copying clones the match
//   (fm_match_clone), moving transfers the handle, the destructor frees it. A moved-from
//   Match holds no handle; using it throws fm::Error (FM_NULL_ARGUMENT).
// - Every failing call throws fm::Error, carrying the fm_status, the rule (for a refused
//   command: "5.2(d)") and the message read from fm_last_error_message.
// - Strings returned by the library are copied into std::string and freed at once; the
//   caller never sees a library-owned pointer.
// - Threads: distinct Match objects are independent. One Match may be shared between
//   threads: every method, const or not, takes the Match's own mutex around its C call,
//   so concurrent calls wait for each other instead of failing with FM_BUSY (the C
//   handle's const queries fill a cache, so they cannot run at the same time). Calls
//   made directly on get()'s handle bypass that mutex: the C API's rule (one thread at a
//   time per handle) applies to them.
// - Versions: FM_VERSION_STRING (and _MAJOR, _MINOR, _PATCH) is the header's;
//   fm::version() the loaded library's.
//
// Link with -lfm, exactly as for the C API (see the top of fm.h).

#ifndef FM_HPP
#define FM_HPP

#include "fm.h"

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace fm {

/// A failed call: the status, the rule (the rule number for FM_ILLEGAL_COMMAND,
/// otherwise a category such as "scenario" or "argument") and the message.
class Error : public std::runtime_error {
public:
    Error(fm_status status, std::string rule, const std::string &message)
        : std::runtime_error(message), status_(status), rule_(std::move(rule)) {}

    /// The status the C function returned.
    fm_status status() const noexcept { return status_; }
    /// The rule the command breaks ("5.2(d)"), or the error's category.
    const std::string &rule() const noexcept { return rule_; }

private:
    fm_status status_;
    std::string rule_;
};

/// A side of the game; None is no side (as an argument: the referee's, everything; as a
/// result of decider(): nobody, the game is over).
enum class Side : fm_side { A = FM_SIDE_A, B = FM_SIDE_B, None = FM_SIDE_NONE };

/// The winner of a match: None while it goes on and after a draw.
enum class Winner { None, A, B };

/// How a match stands (tells a draw from a game going on, as Winner cannot).
enum class Result { Ongoing = FM_RESULT_ONGOING, AWon = FM_RESULT_A_WON,
                    BWon = FM_RESULT_B_WON, Draw = FM_RESULT_DRAW };

namespace detail {

/// Copies a library-owned string into a std::string and frees it.
inline std::string take(char *s) {
    std::string out = s != nullptr ? std::string(s) : std::string();
    fm_string_free(s);
    return out;
}

/// Throws the calling thread's last error as fm::Error.
[[noreturn]] inline void raise(fm_status status) {
    char *message = nullptr;
    char *rule = nullptr;
    fm_last_error_message(&message);
    fm_last_error_rule(&rule);
    std::string m = take(message);
    std::string r = take(rule);
    const char *name = nullptr;
    if (fm_status_name(status, &name) != FM_OK || name == nullptr) {
        name = "FM_?";
    }
    throw Error(status, r, std::string(name) + ": " + m);
}

/// Throws unless the status is FM_OK.
inline void check(fm_status status) {
    if (status != FM_OK) {
        raise(status);
    }
}

}  // namespace detail

/// The ids of the built-in scenarios, as a JSON array of strings.
inline std::string scenario_names() {
    char *json = nullptr;
    detail::check(fm_scenario_names(&json));
    return detail::take(json);
}

/// The library version.
inline std::string version() {
    const char *v = nullptr;
    detail::check(fm_version(&v));
    return std::string(v);
}

/// A running match (scenario, state, seeded generator and log), owning its handle.
/// Every method takes the Match's mutex (see the top of this file: one Match may be
/// shared between threads).
class Match {
public:
    /// A match of a built-in scenario (see scenario_names()).
    static Match builtin(const std::string &scenario, std::uint64_t seed) {
        fm_match *h = nullptr;
        detail::check(fm_match_new(scenario.c_str(), seed, &h));
        return Match(h);
    }

    /// A match of a scenario given as JSON.
    static Match from_json(const std::string &scenario_json, std::uint64_t seed) {
        fm_match *h = nullptr;
        detail::check(fm_match_from_json(scenario_json.c_str(), seed, &h));
        return Match(h);
    }

    /// A match restored from save(), its replay verified.
    static Match load(const std::string &save_json) {
        fm_match *h = nullptr;
        detail::check(fm_match_load(save_json.c_str(), &h));
        return Match(h);
    }

    /// Copies the match (fm_match_clone): an independent match that continues exactly
    /// as this one would.
    Match(const Match &other) : h_(nullptr) {
        Lock lock(other.mu_);
        detail::check(fm_match_clone(other.h_, &h_));
    }

    /// Moves the handle. Not thread-safe: no other thread may use either Match meanwhile.
    Match(Match &&other) noexcept : h_(other.h_) { other.h_ = nullptr; }

    Match &operator=(const Match &other) {
        if (this != &other) {
            Match copy(other);
            Lock lock(mu_);
            std::swap(h_, copy.h_);
        }
        return *this;
    }

    /// Moves the handle. Not thread-safe, as the move constructor.
    Match &operator=(Match &&other) noexcept {
        if (this != &other) {
            fm_match_free(h_);
            h_ = other.h_;
            other.h_ = nullptr;
        }
        return *this;
    }

    ~Match() { fm_match_free(h_); }

    // --- JSON: commands in, events and state out (docs/protocol.md).

    /// Applies a command given as JSON; returns its events as a JSON array.
    std::string apply(const std::string &command_json) {
        Lock lock(mu_);
        char *events = nullptr;
        detail::check(fm_match_apply(h_, command_json.c_str(), &events));
        return detail::take(events);
    }

    /// The pending decision, as JSON.
    std::string pending() const { return json(fm_match_pending); }
    /// The legal commands, as a JSON array.
    std::string legal_commands() const { return json(fm_match_legal_commands); }
    /// The full state, as JSON, every hidden value included (the referee's).
    std::string state() const { return json(fm_match_state); }
    /// The events that opened the game, as a JSON array.
    std::string opening_events() const { return json(fm_match_opening_events); }
    /// The save file, as JSON: referee material (seed and every hidden value).
    std::string save() const { return json(fm_match_save); }

    /// The rules system's name ("fm", "huzzah").
    std::string system() const { return json(fm_match_system); }
    /// The scenario's data, as JSON.
    std::string scenario() const { return json(fm_match_scenario); }
    /// The generator's seed (the referee's).
    std::uint64_t seed() const {
        Lock lock(mu_);
        std::uint64_t s = 0;
        detail::check(fm_match_seed(h_, &s));
        return s;
    }
    /// How and why the game ended: "null" while it goes on, else {"winner", "reason"}.
    std::string outcome() const { return json(fm_match_outcome); }
    /// The log from command `from` on, as a JSON array: the referee's (Side::None) or
    /// as `side` may know it.
    std::string log(Side side = Side::None, std::size_t from = 0) const {
        Lock lock(mu_);
        char *out = nullptr;
        detail::check(fm_match_log(h_, static_cast<fm_side>(side), from, &out));
        return detail::take(out);
    }

    /// The last command's events, as a JSON array: as `side` sees them, or all of them
    /// (Side::None, the referee's).
    std::string last_events(Side side = Side::None) const {
        Lock lock(mu_);
        char *out = nullptr;
        detail::check(fm_match_last_events(h_, static_cast<fm_side>(side), &out));
        return detail::take(out);
    }

    /// The JSON of the i-th legal command (the one apply_legal(i) applies).
    std::string command_json_at(std::size_t i) const {
        Lock lock(mu_);
        char *out = nullptr;
        detail::check(fm_match_command_json_at(h_, i, &out));
        return detail::take(out);
    }

    /// The JSON of the command a stable action index stands for now.
    std::string index_command(std::size_t index) const {
        Lock lock(mu_);
        char *out = nullptr;
        detail::check(fm_match_index_command(h_, index, &out));
        return detail::take(out);
    }

    /// The stable action index of a command given as JSON; false (and `index`
    /// untouched) if it has none now. Throws fm::Error for JSON that is no command.
    bool index_of(const std::string &command_json, std::size_t &index) const {
        Lock lock(mu_);
        bool found = false;
        std::size_t i = 0;
        detail::check(fm_match_index_of(h_, command_json.c_str(), &found, &i));
        if (found) {
            index = i;
        }
        return found;
    }

    // --- Chance and the generator.

    /// A copy whose random generator is re-seeded (fm_match_clone_with_seed): it rolls
    /// its own dice from now on, as each simulated future of a search should.
    Match clone_with_seed(std::uint64_t seed) const {
        Lock lock(mu_);
        fm_match *h = nullptr;
        detail::check(fm_match_clone_with_seed(h_, seed, &h));
        return Match(h);
    }
    /// A new match drawn from `side`'s knowledge of this one (fm_match_determinized):
    /// the same view for that side, what it may not know drawn anew with `seed`.
    Match determinized(Side side, std::uint64_t seed) const {
        Lock lock(mu_);
        fm_match *h = nullptr;
        detail::check(fm_match_determinized(h_, static_cast<fm_side>(side), seed, &h));
        return Match(h);
    }
    /// Re-seeds the random generator (fm_match_reseed).
    void reseed(std::uint64_t seed) {
        Lock lock(mu_);
        detail::check(fm_match_reseed(h_, seed));
    }
    /// The random generator's state, 64 hex digits (fm_match_rng_state; the referee's).
    std::string rng_state() const { return json(fm_match_rng_state); }
    /// Explicit chance mode (fm_match_set_chance_mode): each draw becomes a chance node.
    void set_chance_mode(bool explicit_chance) {
        Lock lock(mu_);
        detail::check(fm_match_set_chance_mode(h_, explicit_chance));
    }
    /// The pending draw's number of outcomes, each as likely; 0 when none is pending.
    std::uint32_t chance_outcomes() const {
        Lock lock(mu_);
        std::uint32_t n = 0;
        detail::check(fm_match_chance_outcomes(h_, &n));
        return n;
    }
    /// Resolves the pending draw; the command's events (JSON array) once it completes.
    std::string apply_chance(std::uint32_t outcome) {
        Lock lock(mu_);
        char *events = nullptr;
        detail::check(fm_match_apply_chance(h_, outcome, &events));
        return detail::take(events);
    }
    /// Sets the random generator to a state rng_state() gave (fm_match_set_rng_state).
    void set_rng_state(const std::string &state) {
        Lock lock(mu_);
        detail::check(fm_match_set_rng_state(h_, state.c_str()));
    }

    // --- Per side: what a player may be shown.

    /// The state as one side may see it, as JSON.
    std::string view(Side side) const {
        Lock lock(mu_);
        char *out = nullptr;
        detail::check(fm_match_view(h_, static_cast<fm_side>(side), &out));
        return detail::take(out);
    }

    /// One side's perfect-recall information state (fm_match_information_state).
    std::string information_state(Side side) const {
        Lock lock(mu_);
        char *out = nullptr;
        detail::check(fm_match_information_state(h_, static_cast<fm_side>(side), &out));
        return detail::take(out);
    }

    /// The match as one side may know it (no seed, no hidden value), as JSON: what to
    /// give that side's player.
    std::string export_side(Side side) const {
        Lock lock(mu_);
        char *out = nullptr;
        detail::check(fm_match_export(h_, static_cast<fm_side>(side), &out));
        return detail::take(out);
    }

    /// The hash of one side's view: the hash to show that side's player.
    std::uint64_t view_hash(Side side) const {
        Lock lock(mu_);
        std::uint64_t h = 0;
        detail::check(fm_match_view_hash(h_, static_cast<fm_side>(side), &h));
        return h;
    }

    // --- Queries (any system that answers them; fm::Error FM_UNSUPPORTED otherwise).

    /// Why the rules would refuse a command: "null" if it is legal, else a JSON object
    /// {"rule", "message"}. Throws fm::Error for JSON that is no command.
    std::string explain(const std::string &command_json) const {
        Lock lock(mu_);
        char *out = nullptr;
        detail::check(fm_match_explain(h_, command_json.c_str(), &out));
        return detail::take(out);
    }

    /// Where a unit can move now, as a JSON array (Fire & Movement).
    std::string reachable(const std::string &unit) const {
        Lock lock(mu_);
        char *out = nullptr;
        detail::check(fm_match_reachable(h_, unit.c_str(), &out));
        return detail::take(out);
    }

    /// The exact odds of a proposal (the system's JSON form) as `side` knows them.
    std::string odds(Side side, const std::string &proposal_json) const {
        Lock lock(mu_);
        char *out = nullptr;
        detail::check(fm_match_odds(h_, static_cast<fm_side>(side), proposal_json.c_str(), &out));
        return detail::take(out);
    }

    /// The picture as SVG: of `side`'s view, or of the whole state (Side::None);
    /// `options_json` a JSON object of the system's drawing options.
    std::string svg(Side side = Side::None, const std::string &options_json = "{}") const {
        Lock lock(mu_);
        char *out = nullptr;
        detail::check(fm_match_svg(h_, static_cast<fm_side>(side), options_json.c_str(), &out));
        return detail::take(out);
    }

    /// The observation's layout, as JSON ({"shape", "channels", "features"}).
    std::string observation_spec() const { return json(fm_match_observation_spec); }

    /// The number of floats of an observation.
    std::size_t observation_size() const {
        Lock lock(mu_);
        std::size_t n = 0;
        detail::check(fm_match_observation_size(h_, &n));
        return n;
    }

    /// Writes `side`'s observation into `out`, resized to observation_size() (reuse one
    /// vector across calls: no allocation once it has the size).
    void observation(Side side, std::vector<float> &out) const {
        Lock lock(mu_);
        std::size_t n = 0;
        fm_status s = fm_match_observation(h_, static_cast<fm_side>(side), out.data(),
                                           out.size(), &n);
        if (s == FM_BUFFER_TOO_SMALL) {
            out.resize(n);
            s = fm_match_observation(h_, static_cast<fm_side>(side), out.data(), out.size(),
                                     &n);
        }
        detail::check(s);
        out.resize(n);
    }

    /// Writes `side`'s perfect-recall information state as floats into `out`, resized
    /// to fm_information_state_tensor_size(max_commands) (fm_match_information_state_tensor;
    /// reuse one vector across calls). Throws fm::Error (FM_INVALID_ARGUMENT) when the
    /// side's record holds more than `max_commands` commands.
    void information_state_tensor(Side side, std::size_t max_commands,
                                  std::vector<float> &out) const {
        Lock lock(mu_);
        out.resize(fm_information_state_tensor_size(max_commands));
        std::size_t n = 0;
        detail::check(fm_match_information_state_tensor(h_, static_cast<fm_side>(side),
                                                        max_commands, out.data(),
                                                        out.size(), &n));
    }

    // --- Typed answers to the hot questions: no JSON.

    /// Whose decision it is: Side::A, Side::B, or Side::None once the game is over.
    Side decider() const {
        Lock lock(mu_);
        fm_side s = FM_SIDE_NONE;
        detail::check(fm_match_decider(h_, &s));
        return static_cast<Side>(s);
    }

    /// The kind of the pending decision ("phase", "retreat", "game_over", ...), the
    /// "kind" of pending()'s JSON.
    std::string decision_kind() const {
        Lock lock(mu_);
        char buf[32];
        std::size_t n = 0;
        fm_status s = fm_match_decision_kind(h_, buf, sizeof buf, &n);
        if (s == FM_BUFFER_TOO_SMALL) {
            std::vector<char> big(n);
            detail::check(fm_match_decision_kind(h_, big.data(), big.size(), &n));
            return std::string(big.data());
        }
        detail::check(s);
        return std::string(buf);
    }

    /// How the game stands: going on, won by a side, or drawn.
    Result result() const {
        Lock lock(mu_);
        fm_result r = FM_RESULT_ONGOING;
        detail::check(fm_match_result(h_, &r));
        return static_cast<Result>(r);
    }

    /// Whether the game is over.
    bool is_over() const {
        Lock lock(mu_);
        bool over = false;
        detail::check(fm_match_is_over(h_, &over));
        return over;
    }

    /// The winner (None while the game goes on, and after a draw: see result()).
    Winner winner() const {
        Lock lock(mu_);
        fm_winner w = FM_WINNER_NONE;
        detail::check(fm_match_winner(h_, &w));
        return w == FM_WINNER_A ? Winner::A : w == FM_WINNER_B ? Winner::B : Winner::None;
    }

    // --- The built-in AI.

    /// The built-in AI's choice for the pending decision (fm_match_best_command): a JSON
    /// object with "command" and "index". `config_json` holds search settings ("{}":
    /// the defaults, 200 iterations); `time_budget_ms` > 0 also bounds the time.
    std::string best_command(const std::string &config_json = "{}",
                             std::uint64_t time_budget_ms = 0) const {
        Lock lock(mu_);
        char *out = nullptr;
        detail::check(fm_match_best_command(h_, config_json.c_str(), time_budget_ms, &out));
        return detail::take(out);
    }

    /// Takes back the last command; false if there was none.
    bool undo() {
        Lock lock(mu_);
        bool undone = false;
        detail::check(fm_match_undo(h_, &undone));
        return undone;
    }

    // --- The fast path: integers, no JSON.

    /// Number of legal commands (fast path).
    std::size_t legal_count() const {
        Lock lock(mu_);
        std::size_t n = 0;
        detail::check(fm_match_legal_count(h_, &n));
        return n;
    }

    /// Applies the i-th legal command (fast path).
    void apply_legal(std::size_t i) {
        Lock lock(mu_);
        detail::check(fm_match_apply_legal(h_, i));
    }

    /// Applies the i-th legal command and returns its events (JSON array, the
    /// referee's): one call to apply and animate a move.
    std::string apply_legal_events(std::size_t i) {
        Lock lock(mu_);
        char *events = nullptr;
        detail::check(fm_match_apply_legal_events(h_, i, &events));
        return detail::take(events);
    }

    /// The stable action indices of the legal commands, ascending.
    std::vector<std::size_t> legal_indices() const {
        Lock lock(mu_);
        std::size_t n = 0;
        fm_status s = fm_match_legal_indices(h_, nullptr, 0, &n);
        if (s != FM_OK && s != FM_BUFFER_TOO_SMALL) {
            detail::raise(s);
        }
        std::vector<std::size_t> v(n);
        detail::check(fm_match_legal_indices(h_, v.data(), v.size(), &n));
        v.resize(n);
        return v;
    }

    /// Applies the command with a stable action index.
    void apply_index(std::size_t index) {
        Lock lock(mu_);
        detail::check(fm_match_apply_index(h_, index));
    }

    /// Applies the command with a stable action index and returns its events (JSON
    /// array, the referee's).
    std::string apply_index_events(std::size_t index) {
        Lock lock(mu_);
        char *events = nullptr;
        detail::check(fm_match_apply_index_events(h_, index, &events));
        return detail::take(events);
    }

    /// The size of the scenario's action space.
    std::size_t action_space_size() const {
        Lock lock(mu_);
        std::size_t n = 0;
        detail::check(fm_match_action_space_size(h_, &n));
        return n;
    }

    /// Plays to the end with random legal commands; returns how many were applied.
    std::size_t playout(std::uint64_t seed) {
        Lock lock(mu_);
        std::size_t n = 0;
        detail::check(fm_match_playout(h_, seed, &n));
        return n;
    }

    /// The platform-independent 64-bit state hash. Referee material: it covers hidden
    /// values; show a player view_hash().
    std::uint64_t state_hash() const {
        Lock lock(mu_);
        std::uint64_t h = 0;
        detail::check(fm_match_state_hash(h_, &h));
        return h;
    }

    /// Number of commands applied so far.
    std::size_t command_count() const {
        Lock lock(mu_);
        std::size_t n = 0;
        detail::check(fm_match_command_count(h_, &n));
        return n;
    }

    // --- The factored action space.

    /// The number of values of each step, fixed for the scenario (fm_match_factored_*).
    std::vector<std::size_t> factored_sizes() const {
        Lock lock(mu_);
        std::size_t n = 0;
        fm_status s = fm_match_factored_sizes(h_, nullptr, 0, &n);
        if (s != FM_OK && s != FM_BUFFER_TOO_SMALL) {
            detail::raise(s);
        }
        std::vector<std::size_t> v(n);
        detail::check(fm_match_factored_sizes(h_, v.data(), v.size(), &n));
        v.resize(n);
        return v;
    }

    /// The options of the next step after a prefix now, ascending (each leads to a
    /// legal command; the empty prefix gives the first step's).
    std::vector<std::size_t> factored_options(const std::vector<std::size_t> &prefix) const {
        Lock lock(mu_);
        std::size_t n = 0;
        fm_status s =
            fm_match_factored_options(h_, prefix.data(), prefix.size(), nullptr, 0, &n);
        if (s != FM_OK && s != FM_BUFFER_TOO_SMALL) {
            detail::raise(s);
        }
        std::vector<std::size_t> v(n);
        detail::check(
            fm_match_factored_options(h_, prefix.data(), prefix.size(), v.data(), v.size(), &n));
        v.resize(n);
        return v;
    }

    /// The next step's options after a prefix as a mask (1 for an option) of the step's
    /// size, written into `mask` (resized).
    void factored_mask(const std::vector<std::size_t> &prefix,
                       std::vector<std::uint8_t> &mask) const {
        Lock lock(mu_);
        std::size_t n = 0;
        fm_status s = fm_match_factored_mask(h_, prefix.data(), prefix.size(), mask.data(),
                                             mask.size(), &n);
        if (s == FM_BUFFER_TOO_SMALL) {
            mask.resize(n);
            s = fm_match_factored_mask(h_, prefix.data(), prefix.size(), mask.data(),
                                       mask.size(), &n);
        }
        detail::check(s);
        mask.resize(n);
    }

    /// Whether a factored sequence is complete (it stands for a command).
    bool factored_complete(const std::vector<std::size_t> &seq) const {
        Lock lock(mu_);
        bool complete = false;
        detail::check(fm_match_factored_complete(h_, seq.data(), seq.size(), &complete));
        return complete;
    }

    /// The stable action index of a complete factored sequence.
    std::size_t factored_to_flat(const std::vector<std::size_t> &seq) const {
        Lock lock(mu_);
        std::size_t index = 0;
        detail::check(fm_match_factored_to_flat(h_, seq.data(), seq.size(), &index));
        return index;
    }

    /// The factored sequence of a stable action index.
    std::vector<std::size_t> flat_to_factored(std::size_t index) const {
        Lock lock(mu_);
        std::size_t n = 0;
        fm_status s = fm_match_flat_to_factored(h_, index, nullptr, 0, &n);
        if (s != FM_OK && s != FM_BUFFER_TOO_SMALL) {
            detail::raise(s);
        }
        std::vector<std::size_t> v(n);
        detail::check(fm_match_flat_to_factored(h_, index, v.data(), v.size(), &n));
        v.resize(n);
        return v;
    }

    /// Applies the command of a complete factored sequence.
    void apply_factored(const std::vector<std::size_t> &seq) {
        Lock lock(mu_);
        detail::check(fm_match_apply_factored(h_, seq.data(), seq.size()));
    }

    /// The underlying handle, still owned by this object (for calling the C API; such
    /// calls bypass this object's mutex).
    fm_match *get() noexcept { return h_; }
    /// The underlying handle, still owned by this object (for calling the C API).
    const fm_match *get() const noexcept { return h_; }

private:
    typedef std::lock_guard<std::mutex> Lock;

    explicit Match(fm_match *h) noexcept : h_(h) {}

    std::string json(fm_status (*f)(const fm_match *, char **)) const {
        Lock lock(mu_);
        char *out = nullptr;
        detail::check(f(h_, &out));
        return detail::take(out);
    }

    fm_match *h_;
    /// Serializes every call on h_ (const ones too: they fill the handle's cache).
    mutable std::mutex mu_;
};

}  // namespace fm

#endif  // FM_HPP

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
// - Thread safety is that of the C API: distinct Match objects are independent; one
//   Match is not used by two threads at once without a lock.
//
// Link with -lfm, exactly as for the C API (see the top of fm.h).

#ifndef FM_HPP
#define FM_HPP

#include "fm.h"

#include <cstddef>
#include <cstdint>
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

/// A side of the game.
enum class Side : fm_side { A = FM_SIDE_A, B = FM_SIDE_B };

/// The winner of a match: None while it goes on and after a draw.
enum class Winner { None, A, B };

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
        detail::check(fm_match_clone(other.h_, &h_));
    }

    Match(Match &&other) noexcept : h_(other.h_) { other.h_ = nullptr; }

    Match &operator=(const Match &other) {
        if (this != &other) {
            Match copy(other);
            std::swap(h_, copy.h_);
        }
        return *this;
    }

    Match &operator=(Match &&other) noexcept {
        if (this != &other) {
            fm_match_free(h_);
            h_ = other.h_;
            other.h_ = nullptr;
        }
        return *this;
    }

    ~Match() { fm_match_free(h_); }

    /// Applies a command given as JSON; returns its events as a JSON array.
    std::string apply(const std::string &command_json) {
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

    /// A copy whose random generator is re-seeded (fm_match_clone_with_seed): it rolls
    /// its own dice from now on, as each simulated future of a search should.
    Match clone_with_seed(std::uint64_t seed) const {
        fm_match *h = nullptr;
        detail::check(fm_match_clone_with_seed(h_, seed, &h));
        return Match(h);
    }
    /// Re-seeds the random generator (fm_match_reseed).
    void reseed(std::uint64_t seed) { detail::check(fm_match_reseed(h_, seed)); }
    /// The random generator's state, 64 hex digits (fm_match_rng_state; the referee's).
    std::string rng_state() const { return json(fm_match_rng_state); }
    /// Explicit chance mode (fm_match_set_chance_mode): each draw becomes a chance node.
    void set_chance_mode(bool explicit_chance) {
        detail::check(fm_match_set_chance_mode(h_, explicit_chance));
    }
    /// The pending draw's number of outcomes, each as likely; 0 when none is pending.
    std::uint32_t chance_outcomes() const {
        std::uint32_t n = 0;
        detail::check(fm_match_chance_outcomes(h_, &n));
        return n;
    }
    /// Resolves the pending draw; the command's events (JSON array) once it completes.
    std::string apply_chance(std::uint32_t outcome) {
        char *events = nullptr;
        detail::check(fm_match_apply_chance(h_, outcome, &events));
        return detail::take(events);
    }
    /// Sets the random generator to a state rng_state() gave (fm_match_set_rng_state).
    void set_rng_state(const std::string &state) {
        detail::check(fm_match_set_rng_state(h_, state.c_str()));
    }

    /// The state as one side may see it, as JSON.
    std::string view(Side side) const {
        char *out = nullptr;
        detail::check(fm_match_view(h_, static_cast<fm_side>(side), &out));
        return detail::take(out);
    }

    /// One side's perfect-recall information state (fm_match_information_state).
    std::string information_state(Side side) const {
        char *out = nullptr;
        detail::check(fm_match_information_state(h_, static_cast<fm_side>(side), &out));
        return detail::take(out);
    }

    /// The built-in AI's choice for the pending decision (fm_match_best_command): a JSON
    /// object with "command" and "index". `config_json` holds search settings ("{}":
    /// the defaults, 200 iterations); `time_budget_ms` > 0 also bounds the time.
    std::string best_command(const std::string &config_json = "{}",
                             std::uint64_t time_budget_ms = 0) const {
        char *out = nullptr;
        detail::check(fm_match_best_command(h_, config_json.c_str(), time_budget_ms, &out));
        return detail::take(out);
    }

    /// The match as one side may know it (no seed, no hidden value), as JSON: what to
    /// give that side's player.
    std::string export_side(Side side) const {
        char *out = nullptr;
        detail::check(fm_match_export(h_, static_cast<fm_side>(side), &out));
        return detail::take(out);
    }

    /// Takes back the last command; false if there was none.
    bool undo() {
        bool undone = false;
        detail::check(fm_match_undo(h_, &undone));
        return undone;
    }

    /// Number of legal commands (fast path).
    std::size_t legal_count() const {
        std::size_t n = 0;
        detail::check(fm_match_legal_count(h_, &n));
        return n;
    }

    /// Applies the i-th legal command (fast path).
    void apply_legal(std::size_t i) { detail::check(fm_match_apply_legal(h_, i)); }

    /// The stable action indices of the legal commands, ascending.
    std::vector<std::size_t> legal_indices() const {
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
    void apply_index(std::size_t index) { detail::check(fm_match_apply_index(h_, index)); }

    /// The size of the scenario's action space.
    std::size_t action_space_size() const {
        std::size_t n = 0;
        detail::check(fm_match_action_space_size(h_, &n));
        return n;
    }

    /// The factored action space (fm_match_factored_*): the number of values of each
    /// step, fixed for the scenario.
    std::vector<std::size_t> factored_sizes() const {
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
        bool complete = false;
        detail::check(fm_match_factored_complete(h_, seq.data(), seq.size(), &complete));
        return complete;
    }

    /// The stable action index of a complete factored sequence.
    std::size_t factored_to_flat(const std::vector<std::size_t> &seq) const {
        std::size_t index = 0;
        detail::check(fm_match_factored_to_flat(h_, seq.data(), seq.size(), &index));
        return index;
    }

    /// The factored sequence of a stable action index.
    std::vector<std::size_t> flat_to_factored(std::size_t index) const {
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
        detail::check(fm_match_apply_factored(h_, seq.data(), seq.size()));
    }

    /// Whether the game is over.
    bool is_over() const {
        bool over = false;
        detail::check(fm_match_is_over(h_, &over));
        return over;
    }

    /// The winner (None while the game goes on, and after a draw).
    Winner winner() const {
        fm_winner w = FM_WINNER_NONE;
        detail::check(fm_match_winner(h_, &w));
        return w == FM_WINNER_A ? Winner::A : w == FM_WINNER_B ? Winner::B : Winner::None;
    }

    /// Plays to the end with random legal commands; returns how many were applied.
    std::size_t playout(std::uint64_t seed) {
        std::size_t n = 0;
        detail::check(fm_match_playout(h_, seed, &n));
        return n;
    }

    /// The platform-independent 64-bit state hash. Referee material: it covers hidden
    /// values; show a player view_hash().
    std::uint64_t state_hash() const {
        std::uint64_t h = 0;
        detail::check(fm_match_state_hash(h_, &h));
        return h;
    }

    /// The hash of one side's view: the hash to show that side's player.
    std::uint64_t view_hash(Side side) const {
        std::uint64_t h = 0;
        detail::check(fm_match_view_hash(h_, static_cast<fm_side>(side), &h));
        return h;
    }

    /// Number of commands applied so far.
    std::size_t command_count() const {
        std::size_t n = 0;
        detail::check(fm_match_command_count(h_, &n));
        return n;
    }

    /// The underlying handle, still owned by this object (for calling the C API).
    fm_match *get() noexcept { return h_; }
    /// The underlying handle, still owned by this object (for calling the C API).
    const fm_match *get() const noexcept { return h_; }

private:
    explicit Match(fm_match *h) noexcept : h_(h) {}

    std::string json(fm_status (*f)(const fm_match *, char **)) const {
        char *out = nullptr;
        detail::check(f(h_, &out));
        return detail::take(out);
    }

    fm_match *h_;
};

}  // namespace fm

#endif  // FM_HPP

/*
 * xcore.h -- 7 Wonders Duel with its expansions in C: the compiled mirror of duel/expansions/.
 *
 * The Python expansion engine (duel/expansions/state.py, rules.py, legal.py) stays the readable
 * reference; this is its compiled mirror, rule for rule, checked against it at every step by
 * tests/expansions/test_xcore.py. Each helper names the Python function it mirrors.
 *
 * Why a sibling of the base core rather than the base core grown: the base state (dc_state) is a
 * 224-byte value tuned for the solvers, with a packed economy and 20-slot structures; the
 * expansions add a treasury on Astarte, six Pantheon spaces, decks with partly known tops, tokens
 * on the structures, and (Agora) 25-slot structures. Growing dc_state would slow every base
 * search; a separate state with the base's tables and helpers (one unity build: duel_core.c is
 * included) leaves the base core byte for byte as it was.
 *
 * Encodings are the Python engine's: card ids 0..90 (base 0..72, Grand Temples 73..77, Agora's
 * Senators 78..90), Wonder ids 0..15, Progress token ids 0..14, Divinity ids 0..14 in the data's
 * order (DX_GATE for the Gate), Mythology ids 0..4 in MYTHOLOGIES order. A move is an int32:
 * kind << 16 | a << 8 | b (duel/xcore.py maps it to and from XMove). A state may be the referee's
 * (observer -1) or a player's view (observer 0 or 1): a view holds DX_UNKNOWN where the opponent's
 * private card is, and its chance nodes range over what that player cannot rule out.
 */
#ifndef XCORE_H
#define XCORE_H

#include "duel_core.c"

#define DX_SLOTS 25 /* Agora's structures; the base game's and Pantheon's use 20 */
#define DX_SPACES 6
#define DX_DECK_MAX 3
#define DX_GATE 15
#define DX_EMPTY (-1)    /* a Pantheon space with no card; a deck entry / drawn card: none */
#define DX_UNKNOWN (-2)  /* a card the observer does not know */
#define DX_NO_MINERVA (-128)
#define DX_PANTHEON 1
#define DX_AGORA 2

typedef struct dx_divinity_spec {
    uint8_t mythology, effect, amount;
} dx_divinity_spec;

/* Divinity effects (components._EFFECT_OF), in tools/gen_xtables.py EFFECTS order. */
enum {
    DX_E_ENKI, DX_E_ISHTAR, DX_E_NISABA, DX_E_ASTARTE, DX_E_BAAL, DX_E_TANIT, DX_E_APHRODITE,
    DX_E_HADES, DX_E_ZEUS, DX_E_ANUBIS, DX_E_ISIS, DX_E_RA, DX_E_MARS, DX_E_MINERVA, DX_E_NEPTUNE
};

#include "xcore_tables.h"

/* Phases: the strings of XState.phase, in DX_PHASE_NAMES order (duel/xcore.py reads them). */
#define DX_PHASES(X)                                                                           \
    X(SETUP_TOKENS, "setup_tokens") X(SETUP_WONDERS, "setup_wonders") X(DRAFT, "draft")         \
    X(REVEAL, "reveal") X(PLAY, "play") X(CHOOSE_TOKEN, "choose_token")                         \
    X(LIBRARY_DRAW, "library_draw") X(LIBRARY_CHOOSE, "library_choose") X(DESTROY, "destroy")   \
    X(MAUSOLEUM, "mausoleum") X(CHOOSE_STARTER, "choose_starter") X(GAME_OVER, "game_over")     \
    X(DEAL_BACKS, "deal_backs") X(PLACE_MYTHOLOGY, "place_mythology")                           \
    X(PLACE_OFFERINGS, "place_offerings") X(DRAW_DIVINITIES, "draw_divinities") X(SEAT, "seat") \
    X(FLIP, "flip") X(ENKI_TOKENS, "enki_tokens") X(ENKI_CHOOSE, "enki_choose")                 \
    X(NISABA, "nisaba") X(BAAL, "baal") X(ZEUS, "zeus") X(ZEUS_REVEAL, "zeus_reveal")           \
    X(ANUBIS, "anubis") X(ISIS, "isis") X(RA, "ra") X(MINERVA, "minerva")                       \
    X(NEPTUNE_REMOVE, "neptune_remove") X(NEPTUNE_APPLY, "neptune_apply") X(TOP, "top")         \
    X(GATE_CHOOSE, "gate_choose") X(THEATER_DECK, "theater_deck") X(DECK, "deck")               \
    X(THEATER_CHOOSE, "theater_choose") X(THEATER_ORDER, "theater_order")                      \
    X(DECREE, "decree") X(BACK, "back") X(DRAW_PLOTS, "draw_plots") X(KEEP_PLOT, "keep_plot")   \
    X(PLACE, "place") X(EVICT, "evict") X(MOVE_CUBE, "move_cube") X(SENATE, "senate")           \
    X(CONSPIRATOR, "conspirator") X(LOCK_TOKEN, "lock_token") X(FRAUD, "fraud")                 \
    X(TREASON_DEAL, "treason_deal") X(TREASON, "treason") X(ESPIONAGE, "espionage")             \
    X(DISCARD_ANY, "discard_any") X(COERCION, "coercion") X(INSIDER, "insider")                 \
    X(SABOTAGE, "sabotage") X(CURIA, "curia")
#define DX_PHASE_ENUM(name, text) DX_##name,
enum { DX_PHASES(DX_PHASE_ENUM) DX_N_PHASES };

/* Move kinds; the arguments of each (a, b, or the low 16 bits) are in duel/xcore.py. */
#define DX_KINDS(X)                                                                            \
    X(BUILD, "build") X(DISCARD, "discard") X(WONDER, "wonder") X(PICK, "pick")                 \
    X(TOKEN, "token") X(DESTROY_CARD, "destroy") X(MAUSOLEUM_CARD, "mausoleum")                 \
    X(START, "start") X(REVEAL_CARD, "reveal_card") X(REVEAL_WONDER, "reveal_wonder")           \
    X(REVEAL_TOKEN, "reveal_token") X(LIBRARY_DRAW_MOVE, "library_draw")                        \
    X(DEAL_BACKS_MOVE, "deal_backs") X(PLACE_MYTHOLOGY_MOVE, "place_mythology")                 \
    X(PLACE_OFFERINGS_MOVE, "place_offerings") X(DRAW_DIVINITIES_MOVE, "draw_divinities")       \
    X(SEAT_MOVE, "seat") X(FLIP_MOVE, "flip") X(ENKI_TOKENS_MOVE, "enki_tokens")                \
    X(TOP_MOVE, "top") X(DECK_MOVE, "deck") X(ACTIVATE, "activate") X(SNAKE, "snake")           \
    X(TAKE, "take") X(ZEUS_MOVE, "zeus") X(UNBUILD, "unbuild") X(ISIS_MOVE, "isis")             \
    X(STEAL, "steal") X(MINERVA_MOVE, "minerva") X(REMOVE, "remove") X(APPLY, "apply")          \
    X(THEATER, "theater") X(CHOOSE, "choose") X(ORDER, "order")                                \
    X(DECREE_MOVE, "decree") X(BACK_MOVE, "back") X(DRAW_PLOTS_MOVE, "draw_plots")              \
    X(KEEP, "keep") X(PLACE_MOVE, "place") X(EVICT_MOVE, "evict") X(MOVE_CUBE_MOVE, "move_cube") \
    X(NO_MOVE, "no_move") X(STOP, "stop") X(CONSPIRE, "conspire") X(PREPARE, "prepare")         \
    X(TRIGGER, "trigger") X(NO_TRIGGER, "no_trigger") X(LOCK, "lock")                           \
    X(FREE_BUILD, "free_build") X(TREASON_DEAL_MOVE, "treason_deal")                            \
    X(DISCARD_FREE, "discard_free") X(NO_DISCARD, "no_discard") X(SWAP, "swap")                 \
    X(MOVE_DECREE, "move_decree") X(SABOTAGE_MOVE, "sabotage")
#define DX_KIND_ENUM(name, text) DX_K_##name,
enum { DX_KINDS(DX_KIND_ENUM) DX_N_KINDS };

#define DX_MOVE(kind, a, b) ((int32_t)((kind) << 24 | (a) << 8 | (b)))
#define DX_KIND(m) ((m) >> 24)
#define DX_A(m) (((m) >> 8) & 0xFF)
#define DX_B(m) ((m) & 0xFF)
#define DX_LOW(m) ((m) & 0xFFFFFF)
#define DX_DRAWN_UNSEEN 0x80 /* draw_divinities b: the opponent's draw, unseen */
#define DX_NO_DIVINITY 0xFF  /* seat a: a face-down Divinity the observer does not know */

/* Victory kinds (XState.victory). */
enum { DX_NO_VICTORY, DX_MILITARY, DX_SCIENCE, DX_CIVILIAN, DX_POLITICAL };

/* Buffers: the most legal moves of a decision and outcomes of a chance node. */
#define DX_MAX_MOVES 512
#define DX_MAX_OUTCOMES 2048 /* Treason's deal: C(23, 3) = 1771 */

#define DX_MAX_PLOTS 16
#define DX_PLOT_PREPARED 1
#define DX_PLOT_FRESH 2
#define DX_PLOT_USED 4
#define DX_MAX_PENDING 32
#define DX_MAX_DECREES 6 /* Decrees in one Chamber (Insider Influence piles them) */

/* dx_space, dx_city and dx_state, and the LAYOUT of their Python fields: generated by
 * tools/gen_xtables.py from one description. */
#include "xcore_layout.h"

/* Steps of Agora's queue (senate.py): kind | a << 8 | b << 16 | c << 24. A decree step's a is
 * its Chamber and b 0 (no third field), 1 (None) or 2 + the player the Decree left. */
enum {
    DX_S_NONE, DX_S_DECREE, DX_S_PLACE, DX_S_EVICT, DX_S_MOVE, DX_S_SENATE, DX_S_CONSPIRATOR,
    DX_S_CONSPIRE, DX_S_STEAL, DX_S_DESTROY, DX_S_LOCK, DX_S_FRAUD, DX_S_TREASON,
    DX_S_ESPIONAGE, DX_S_DISCARD_ANY, DX_S_TAKE, DX_S_COERCION, DX_S_INSIDER, DX_S_SABOTAGE,
    DX_S_CURIA, DX_S_PAIR, DX_S_SUPREMACY, DX_S_COINS, DX_S_SHIELDS
};
#define DX_STEP(kind, a, b, c) ((uint32_t)(kind) | (uint32_t)(a) << 8 | (uint32_t)(b) << 16 | (uint32_t)(c) << 24)
#define DX_STEP_KIND(x) ((x) & 0xFF)
#define DX_STEP_A(x) (((x) >> 8) & 0xFF)
#define DX_STEP_B(x) (((x) >> 16) & 0xFF)
#define DX_STEP_C(x) (((x) >> 24) & 0xFF)
enum { DX_CONT_NONE, DX_CONT_FINISH, DX_CONT_PLAY, DX_CONT_RESUME };
enum { DX_BACK_NONE, DX_BACK_SENATOR, DX_BACK_AGE, DX_BACK_GUILD, DX_BACK_TEMPLE };
/* destroying: 0 none, then these colours */
enum { DX_DESTROY_BROWN = 1, DX_DESTROY_GREY, DX_DESTROY_BLUE, DX_DESTROY_YELLOW };

#define DX_REVEALING_GATE 8
#define DX_REVEALING_THEATER 9
#define DX_REVEALING_DIVINITY 16

/* The API (static: each extension that includes xcore_legal.c owns a private copy). */
#define DX_API static __attribute__((unused))
static inline int dx_slots(const dx_state *s);
DX_API void dx_new_game(dx_state *s, int expansions);
DX_API int dx_is_chance(const dx_state *s);
DX_API int dx_legal_moves(const dx_state *s, int32_t *out);
DX_API int dx_chance_outcomes(const dx_state *s, int32_t *moves, int64_t *weights);
DX_API void dx_apply(dx_state *s, int32_t move);
DX_API int32_t dx_sample_chance(const dx_state *s, dc_rng *rng);
DX_API int32_t dx_random_move(const dx_state *s, dc_rng *rng);
DX_API int dx_random_playout(dx_state *s, dc_rng *rng);
DX_API int dx_total_points(const dx_state *s, int player);
DX_API void dx_view(const dx_state *s, int player, dx_state *out);

#endif /* XCORE_H */

/*
 * duel_core.h -- the 7 Wonders Duel rules engine in C, mirroring duel/state.py rule for rule.
 *
 * The Python engine (duel/state.py) is the reference; this is its compiled mirror, checked against
 * it by tests/test_ccore.py (thousands of seeded games compared state by state). Everything here
 * uses the same encodings as the Python engine:
 *
 *   - card ids 0..72, wonder ids 0..11, token ids 0..9, slots 0..19, players 0 (A) and 1 (B);
 *   - sets are bit masks (cards: dc_cards, 128 bits; slots: 20 bits; wonders, tokens: 16 bits);
 *   - a move is the int32 code of duel/moves.py: kind << 16 | a << 8 | b;
 *   - the packed economy (production, one-of producers, fixed prices, Masonry/Architecture) is
 *     the same 26-bit int as the Python ECON field.
 *
 * Use it from another C extension as a unity build, so each module gets its own static copy and
 * the compiler can inline across the boundary:
 *
 *     #include "duel_core.c"        // includes this header and the generated duel_tables.h
 *
 *     dc_state s; dc_new_game(&s);
 *     dc_rng rng; dc_rng_seed(&rng, 42);
 *     while (!dc_is_terminal(&s)) dc_apply(&s, dc_random_move(&s, &rng));
 *     int a = dc_total_points(&s, 0);
 *
 * The state is a small fixed-size value (no pointers): copy it with `=` to keep a position, which
 * is the persistent/immutable semantics of the Python State. dc_apply edits in place and never
 * allocates. Functions that take a move assume it is legal (it came from dc_legal_moves or
 * dc_chance_outcomes): use dc_is_legal first for untrusted input.
 */
#ifndef DUEL_CORE_H
#define DUEL_CORE_H

#include <stdint.h>
#include <string.h>

#ifndef DC_API
/* Everything is static: each extension that includes duel_core.c owns a private copy. */
#define DC_API static __attribute__((unused))
#endif

/* A set of cards: bit c for card id c (73 ids). */
__extension__ typedef unsigned __int128 dc_cards;
#define DC_CARDS(hi, lo) ((((dc_cards)(hi)) << 64) | (dc_cards)(lo))
#define DC_CARD_BIT(c) (((dc_cards)1) << (c))

#define DC_SLOTS 20
#define DC_ALL_SLOTS ((1u << DC_SLOTS) - 1)
#define DC_TAKEN (-1)  /* pyramid slot whose card was taken */
#define DC_HIDDEN (-2) /* pyramid slot face down or not dealt yet */

/* Phases (the PHASE field). */
enum {
    DC_SETUP_TOKENS = 0,
    DC_SETUP_WONDERS = 1,
    DC_DRAFT = 2,
    DC_REVEAL_CARDS = 3,
    DC_PLAY = 4,
    DC_CHOOSE_TOKEN = 5,
    DC_LIBRARY_DRAW = 6,
    DC_LIBRARY_CHOOSE = 7,
    DC_DESTROY = 8,
    DC_MAUSOLEUM = 9,
    DC_CHOOSE_STARTER = 10,
    DC_GAME_OVER = 11,
    DC_DEAL_GUILDS = 12 /* issue 10: which Age III slots hold a guild (guild backs) */
};

/* Move kinds (duel/moves.py Kind); a move code is kind << 16 | a << 8 | b. */
enum {
    DC_BUILD = 0,         /* b = card */
    DC_DISCARD = 1,       /* b = card */
    DC_WONDER = 2,        /* a = wonder, b = card put under it */
    DC_PICK_WONDER = 3,   /* a = wonder */
    DC_TOKEN = 4,         /* a = token */
    DC_DESTROY_CARD = 5,  /* b = card */
    DC_MAUSOLEUM_CARD = 6,/* b = card */
    DC_STARTER = 7,       /* a = player */
    DC_REVEAL_CARD = 8,   /* a = slot, b = card */
    DC_REVEAL_WONDER = 9, /* a = wonder */
    DC_REVEAL_TOKEN = 10, /* a = token */
    DC_LIBRARY_DRAW_MOVE = 11, /* low 16 bits = mask of the 3 tokens drawn */
    DC_DEAL_GUILDS_MOVE = 12   /* low 16 bits = rank of the 3-slot set (DC_GUILD_DEALS) */
};
#define DC_MOVE(kind, a, b) ((int32_t)((kind) << 16 | (a) << 8 | (b)))
#define DC_MOVE_KIND(m) ((m) >> 16)
#define DC_MOVE_A(m) (((m) >> 8) & 0xFF)
#define DC_MOVE_B(m) ((m) & 0xFF)

/* Victory kinds (VICTORY field) and the WINNER value of a shared victory. */
enum { DC_NO_VICTORY = 0, DC_MILITARY = 1, DC_SCIENCE = 2, DC_CIVILIAN = 3 };
#define DC_SHARED 2

/* Progress token ids. */
enum {
    DC_T_AGRICULTURE, DC_T_ARCHITECTURE, DC_T_ECONOMY, DC_T_LAW, DC_T_MASONRY,
    DC_T_MATHEMATICS, DC_T_PHILOSOPHY, DC_T_STRATEGY, DC_T_THEOLOGY, DC_T_URBANISM
};

/* Packed economy (the ECON field): production 3 bits per resource (wood, clay, stone, glass,
 * papyrus), raw one-of producers (2 bits), manufactured one-of producers (2 bits), fixed 1-coin
 * prices (5 bits), Masonry, Architecture. */
#define DC_RAW_CHOICE_SHIFT 15
#define DC_MAN_CHOICE_SHIFT 17
#define DC_FIXED_SHIFT 19
#define DC_MASONRY_BIT (1u << 24)
#define DC_ARCHITECTURE_BIT (1u << 25)

/* Buffer sizes: a decision has at most DC_MAX_MOVES legal moves, a chance node at most
 * DC_MAX_OUTCOMES outcomes (the guild deal of Age III has C(20,3) = 1140). */
#define DC_MAX_MOVES 128
#define DC_MAX_OUTCOMES 1140

/* One player's city. Field names follow the Python player fields. */
typedef struct dc_player {
    dc_cards cards;   /* CITY: built cards */
    dc_cards under;   /* UNDER: cards used to build wonders */
    int32_t coins;    /* COINS */
    uint32_t econ;    /* ECON: packed economy, see above */
    uint32_t chains;  /* CHAINS: chain symbols owned (bit i = CHAIN_SYMBOLS[i]) */
    uint16_t wonders; /* WONDERS_: wonders owned, not built */
    uint16_t built;   /* BUILT: wonders built */
    uint16_t tokens;  /* TOKENS_: progress tokens owned */
    uint8_t science;  /* SCIENCE: science symbols owned (bit i = SCIENCE_SYMBOLS[i]) */
    uint8_t pad_[13]; /* zero: states compare and hash bytewise (no implicit padding) */
} dc_player;

/* A position: every field of the Python State's vector (public information only). Keep it
 * zero-initialised padding included (dc_new_game, dc_from_* do) so memcmp/hash work. */
typedef struct dc_state {
    dc_cards unseen;          /* UNSEEN: cards of the Age nobody has seen */
    dc_cards discard;         /* DISCARD */
    dc_player p[2];
    uint32_t present;         /* PRESENT: slots still holding a card */
    uint32_t accessible;      /* ACCESSIBLE: slots whose card may be taken */
    uint32_t reveal;          /* REVEAL: slots to turn face up (lowest first) */
    uint32_t guild_slots;     /* GUILD_SLOTS (issue 10): Age III slots holding a guild */
    int8_t pyramid[DC_SLOTS]; /* PYRAMID: card id, DC_TAKEN or DC_HIDDEN */
    uint16_t board;           /* BOARD: progress tokens on the board */
    uint16_t offer;           /* OFFER: wonders offered in the draft */
    uint16_t wonders_unseen;  /* WONDERS_UNSEEN */
    uint16_t library;         /* LIBRARY: tokens drawn by The Great Library */
    int8_t phase;             /* PHASE */
    int8_t to_move;           /* TO_MOVE */
    int8_t age;               /* AGE: 0 during setup, then 1..3 */
    int8_t pawn;              /* PAWN: -9..9, positive towards B's capital */
    uint8_t military;         /* MILITARY: looting tokens left (bits A2, A5, B2, B5) */
    uint8_t picks;            /* PICKS: wonders drafted so far */
    uint8_t extra;            /* EXTRA: a Play Again is pending */
    int8_t winner;            /* WINNER: -1 while running, 0, 1 or DC_SHARED */
    uint8_t victory;          /* VICTORY: DC_NO_VICTORY .. DC_CIVILIAN */
    uint8_t destroying;       /* DESTROYING: 0, 1 = brown, 2 = grey (a colour mask in Python) */
    uint8_t pad_[10];
} dc_state;

/* Seedable PRNG: xoshiro256** seeded through splitmix64. */
typedef struct dc_rng {
    uint64_t s[4];
} dc_rng;

/* The score sheet categories, in Python Score.CATEGORIES order. */
enum {
    DC_SCORE_BLUE, DC_SCORE_GREEN, DC_SCORE_YELLOW, DC_SCORE_PURPLE, DC_SCORE_WONDERS,
    DC_SCORE_TOKENS, DC_SCORE_COINS, DC_SCORE_MILITARY, DC_SCORE_CATEGORIES
};

/* --- setup and node kind ------------------------------------------------------------------ */
DC_API void dc_new_game(dc_state *s);              /* before setup: the token deal */
DC_API int dc_is_chance(const dc_state *s);
DC_API int dc_is_terminal(const dc_state *s);
DC_API int dc_state_equal(const dc_state *a, const dc_state *b);
DC_API uint64_t dc_state_hash(const dc_state *s);

/* --- decisions ---------------------------------------------------------------------------- */
/* Legal moves in the Python order; returns their number (0 at chance and terminal nodes).
 * `out` holds DC_MAX_MOVES. */
DC_API int dc_legal_moves(const dc_state *s, int32_t *out);
/* 1 if `move` is a legal decision or a possible chance outcome here. */
DC_API int dc_is_legal(const dc_state *s, int32_t move);
/* Apply a legal move or chance outcome in place (no check, no allocation). */
DC_API void dc_apply(dc_state *s, int32_t move);

/* --- chance ------------------------------------------------------------------------------- */
/* Outcomes and exact integer weights in the Python order; returns their number, and the total
 * weight in *total. `moves` and `weights` hold DC_MAX_OUTCOMES. */
DC_API int dc_chance_outcomes(const dc_state *s, int32_t *moves, int64_t *weights, int64_t *total);
/* One outcome drawn with the exact probabilities (-1 if there is none: not a chance node, or
 * an inconsistent position). */
DC_API int32_t dc_sample_chance(const dc_state *s, dc_rng *rng);

/* --- random play -------------------------------------------------------------------------- */
DC_API void dc_rng_seed(dc_rng *rng, uint64_t seed);
DC_API uint64_t dc_rng_next(dc_rng *rng);
DC_API uint64_t dc_rng_below(dc_rng *rng, uint64_t n); /* uniform in [0, n), unbiased */
/* A uniformly random legal move, or at a chance node an outcome with its probability; -1 if
 * there is none (terminal). */
DC_API int32_t dc_random_move(const dc_state *s, dc_rng *rng);
/* Play uniformly random moves to the end of the game; returns the number of steps. */
DC_API int dc_random_playout(dc_state *s, dc_rng *rng);

/* --- scores ------------------------------------------------------------------------------- */
DC_API int dc_total_points(const dc_state *s, int player);  /* State.score(player).total */
DC_API void dc_score_breakdown(const dc_state *s, int player, int out[DC_SCORE_CATEGORIES]);

/* --- prices ------------------------------------------------------------------------------- */
/* Coins `player` pays now for a card (0 through a chain) / a wonder; printed coins included. */
DC_API int dc_card_cost(const dc_state *s, int player, int card);
DC_API int dc_wonder_cost(const dc_state *s, int player, int wonder);
/* Cheapest coins spent trading for resources (duel.pricing.min_purchase_cost, same greedy):
 * need/prod in resource order, unit prices per resource, `waivable` free units. */
DC_API int dc_min_purchase_cost(const uint8_t need[5], const uint8_t prod[5], int raw_choices,
                                int man_choices, const int prices[5], int waivable);

#endif /* DUEL_CORE_H */

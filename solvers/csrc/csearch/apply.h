/*
 * csearch/apply.h -- the moves of an exact solve applied with what the search already knows: a
 * build's price from the price cache, and the final score from tables (fast_apply). Apart
 * because it mirrors the engine's own steps (duel_core.c: dc_apply_build, dc_apply_discard,
 * dc_finish_turn, dc_civilian_end, dc_total_points) for the two moves that make most children of
 * a solve, and a mirror must be read against its original in one place.
 */
/* Profiled on a 14-card solve (issue 64): the engine prices every build again when it applies it
 * (dc_trade_cost, through dc_min_purchase_cost: 6% of the CPU), and scores both cities at each of
 * the tens of millions of ends of the game by loops over the built wonders and tokens (4%). The
 * search has the price in its cache (it priced the card to offer the move), and a city's wonder
 * and token points are a function of a 12-bit and a 10-bit set: tables. The resulting state is
 * the engine's to the byte (tests/test_csearch.py compares node counts and values with
 * fast_apply off). */
static int8_t WONDER_POINTS[1 << DC_N_WONDERS]; /* dc_wonder_points of every set of wonders */
static int8_t TOKEN_POINTS[1 << DC_N_TOKENS];   /* dc_token_points of every set of tokens */

static void apply_tables_init(void) {
    for (uint32_t m = 0; m < 1u << DC_N_WONDERS; m++) WONDER_POINTS[m] = (int8_t)dc_wonder_points(m);
    for (uint32_t m = 0; m < 1u << DC_N_TOKENS; m++) TOKEN_POINTS[m] = (int8_t)dc_token_points(m);
}

/* dc_guild_points, the guilds read off the set without listing them first */
static inline int guild_points(const dc_state *s, dc_cards guilds) {
    int total = 0;
    for (; guilds; guilds &= guilds - 1) {
        const dc_category *rule = &DC_CARDS_TABLE[low_card(guilds)].points_per_max;
        int a = dc_category_count(s, 0, rule), b = dc_category_count(s, 1, rule);
        total += rule->each * (a > b ? a : b);
    }
    return total;
}

/* dc_total_points, the wonders' and tokens' points read from the tables */
static inline int total_points(const dc_state *s, int player) {
    const dc_player *pl = &s->p[player];
    int total = dc_card_points(pl->cards & (DC_BLUE | DC_GREEN | DC_YELLOW));
    if (pl->cards & DC_PURPLE) total += guild_points(s, pl->cards & DC_PURPLE);
    return total + WONDER_POINTS[pl->built] + TOKEN_POINTS[pl->tokens] +
           dc_military_points(player, s->pawn) + pl->coins / 3;
}

/* dc_finish_turn, the end of Age III scored by total_points (dc_civilian_end's rule) */
static inline void finish_turn(dc_state *s) {
    if (s->present || s->age != 3) {
        dc_finish_turn(s);
        return;
    }
    s->extra = 0; /* a pending Play Again is lost */
    dc_end_game(s, dc_civilian_winner(s, total_points(s, 0), total_points(s, 1)), DC_CIVILIAN);
}

/* dc_apply_build for a card whose price `price` (card_price: 0 through a chain, printed coins
 * included) the caller has read */
static inline void apply_build_priced(dc_state *s, int card, int price) {
    int player = s->to_move;
    dc_player *me = &s->p[player];
    const dc_card_spec *spec = &DC_CARDS_TABLE[card];
    int chained = (me->chains & spec->chain_from) != 0;
    dc_take_from_pyramid(s, card);
    if (chained) {
        if (me->tokens >> DC_T_URBANISM & 1) dc_gain_coins(s, player, 4);
    } else if (!spec->needs_nothing || spec->coin_cost) {
        dc_pay(s, player, spec->coin_cost, spec->needs_nothing ? 0 : price - spec->coin_cost);
    }
    if (dc_construct_card(s, player, card)) return;
    if (s->phase == DC_PLAY) finish_turn(s);
}

/* dc_apply_discard */
static inline void apply_discard(dc_state *s, int card) {
    int player = s->to_move;
    dc_take_from_pyramid(s, card);
    dc_gain_coins(s, player, 2 + dc_pop_cards(s->p[player].cards & DC_YELLOW));
    s->discard |= DC_CARD_BIT(card);
    finish_turn(s);
}

/* dc_apply, builds and discards through the mirrors above when `fast` (the fast_apply lever) */
static inline void apply_move(price_cache *pc, int fast, dc_state *s, int32_t move) {
    if (fast && DC_MOVE_KIND(move) == DC_BUILD) {
        int card = DC_MOVE_B(move);
        apply_build_priced(s, card, card_price(pc, s, s->to_move, card));
    } else if (fast && DC_MOVE_KIND(move) == DC_DISCARD) {
        apply_discard(s, DC_MOVE_B(move));
    } else {
        dc_apply(s, move);
    }
}

/*
 * xcore_state.c -- what a position knows of itself: prices, scores, the tokens in the box, the
 * Divinities the observer cannot place, and the views (duel/expansions/state.py's XState
 * methods). Each function names the Python method it mirrors.
 */
#include "xcore.h"

#define DX_TOKEN_POOL_BASE ((uint16_t)((1u << DC_N_TOKENS) - 1))
#define DX_TOKEN_POOL_PANTHEON ((uint16_t)(7u << 10))
#define DX_TOKEN_POOL_AGORA ((uint16_t)(3u << 13))
#define DX_T_ENGINEERING 10
#define DX_T_MYSTICISM 11
#define DX_T_POLIORCETICS 12
#define DX_W_SANCTUARY 12
#define DX_W_DIVINE_THEATER 13
#define DX_T_CORRUPTION 13
#define DX_T_ORGANIZED_CRIME 14
#define DX_W_CURIA_JULIA 14
#define DX_W_KNOSSOS 15
#define DX_APHRODITE 6
#define DX_ENKI 0
#define DX_ISHTAR 1

static inline int dx_has(uint32_t mask, int bit) { return (int)((mask >> bit) & 1); }

static inline const dx_layout *dx_layout_of(const dx_state *s, int age) {
    return s->expansions & DX_AGORA ? &DX_LAYOUTS_AGORA[age] : &DX_LAYOUTS_BASE[age];
}

static inline int dx_slots(const dx_state *s) { return dx_layout_of(s, s->age)->slots; }

/* controller: who controls Chamber index `c` (0-5): strictly more cubes; -1 for a tie */
static inline int dx_controller(const dx_state *s, int c) {
    int a = s->senate[c][0], b = s->senate[c][1];
    return a > b ? 0 : b > a ? 1 : -1;
}

/* senate.in_force: `decree` lies face up in a Chamber `player` controls (read from the
 * forces the state keeps: see dx_refresh_forces) */
static inline int dx_in_force(const dx_state *s, int player, int decree) {
    return s->forces[player] >> decree & 1;
}

/* The Decrees in force for each player, after cubes or Decrees changed. */
static void dx_refresh_forces(dx_state *s) {
    s->forces[0] = s->forces[1] = 0;
    if (!(s->expansions & DX_AGORA)) return;
    for (int c = 0; c < 6; c++) {
        int owner = dx_controller(s, c);
        if (owner < 0) continue;
        for (int k = 0; k < s->n_decrees[c]; k++)
            if (s->decree[c][k] >= 0) s->forces[owner] |= (uint16_t)(1u << s->decree[c][k]);
    }
}

/* senate.senate_points */
static inline int dx_senate_points(const dx_state *s, int player) {
    int points = 0;
    for (int c = 0; c < 6; c++)
        if (dx_controller(s, c) == player) points += DX_CHAMBER_POINTS[c];
    return points;
}

/* token_pool */
static inline uint16_t dx_token_pool(const dx_state *s) {
    uint16_t pool = DX_TOKEN_POOL_BASE;
    if (s->expansions & DX_PANTHEON) pool |= DX_TOKEN_POOL_PANTHEON;
    if (s->expansions & DX_AGORA) pool |= DX_TOKEN_POOL_AGORA;
    return pool;
}

/* XState.box_tokens */
static inline uint16_t dx_box_tokens(const dx_state *s) {
    if (s->phase == DX_SETUP_TOKENS) return 0;
    uint16_t used = s->board | s->library | s->enki_tokens | s->p[0].tokens | s->p[1].tokens |
                    s->locked;
    return dx_token_pool(s) & (uint16_t)~used;
}

static inline int dx_wonders_built(const dx_state *s) {
    return dc_pop32(s->p[0].built | s->p[1].built);
}

/* XState.unaccounted: the Divinities of `mythology` whose place the observer does not know, as
 * a mask of Divinity ids. */
static uint32_t dx_unaccounted(const dx_state *s, int mythology) {
    uint32_t known = 0;
    for (int i = 0; i < DX_SPACES; i++)
        if (s->spaces[i].divinity >= 0) known |= 1u << s->spaces[i].divinity;
    for (int m = 0; m < DX_N_MYTHOLOGIES; m++)
        for (int k = 0; k < s->n_tops[m]; k++)
            if (s->top_divinity[m][k] >= 0) known |= 1u << s->top_divinity[m][k];
    for (int p = 0; p < 2; p++)
        for (int k = 0; k < s->p[p].n_divinities; k++) known |= 1u << s->p[p].divinities[k];
    for (int k = 0; k < s->n_drawn; k++) known |= 1u << s->drawn[k];
    int first = DX_MYTHOLOGY_FIRST[mythology];
    uint32_t all = ((1u << DX_MYTHOLOGY_SIZE[mythology]) - 1) << first;
    return all & ~known;
}

/* XState.is_chained (Pantheon: a Mythology token builds its Grand Temple) */
static inline int dx_is_chained_in(const dx_city *city, int card) {
    if (card >= DX_FIRST_TEMPLE && card < DX_FIRST_SENATOR) {
        int mythology = DX_TEMPLE_MYTHOLOGY[card - DX_FIRST_TEMPLE];
        for (int k = 0; k < city->n_mythology; k++)
            if (city->mythology[k] == mythology) return 1;
        return 0;
    }
    return (city->chains & DX_CARDS_TABLE[card].chain_from) != 0;
}

static inline int dx_is_chained(const dx_state *s, int p, int card) {
    if (dx_is_chained_in(&s->p[p], card)) return 1;
    return dx_in_force(s, p, DX_D_SHARED_CHAINS) && dx_is_chained_in(&s->p[1 - p], card);
}

/* XState._trade_cost with trade_prices (Agora's rebates: 1 less, never below 1) */
static int dx_trade_cost(const dx_state *s, int p, const uint8_t need[5], int waivable) {
    if (!(s->expansions & DX_AGORA))
        return dc_trade_cost(s->p[p].econ, s->p[1 - p].econ, need, waivable);
    int any = 0;
    for (int r = 0; r < 5; r++) any |= need[r];
    if (!any) return 0;
    uint32_t econ = s->p[p].econ, opp = s->p[1 - p].econ;
    uint8_t prod[5];
    int prices[5], missing = 0, plain = 0, rebates = -1;
    for (int r = 0; r < 5; r++) {
        prod[r] = (econ >> (3 * r)) & 7;
        prices[r] = (econ >> (DC_FIXED_SHIFT + r)) & 1 ? 1 : 2 + (int)((opp >> (3 * r)) & 7);
        int m = (int)need[r] - (int)prod[r];
        if (m <= 0) continue;
        if (rebates < 0) /* the Decrees are read once, when a unit is bought */
            rebates = dx_in_force(s, p, DX_D_RAW_GOODS_REBATE) |
                      dx_in_force(s, p, DX_D_MANUFACTURED_GOODS_REBATE) << 1;
        missing = 1;
        if ((rebates >> (r < 3 ? 0 : 1) & 1) && prices[r] > 1) prices[r]--;
        plain += m * prices[r];
    }
    if (!missing) return 0;
    if (!waivable && !(econ >> DC_RAW_CHOICE_SHIFT & 0xF)) return plain;
    if (rebates < 0) rebates = 0;
    for (int r = 0; r < 5; r++) /* the units not missing take the rebate too */
        if ((int)need[r] <= (int)prod[r] && (rebates >> (r < 3 ? 0 : 1) & 1) && prices[r] > 1)
            prices[r]--;
    return dc_min_purchase_cost(need, prod, (econ >> DC_RAW_CHOICE_SHIFT) & 3,
                                (econ >> DC_MAN_CHOICE_SHIFT) & 3, prices, waivable);
}

/* XState.card_price: the total coins, and the part paid for resources (Economy's share). */
static inline int dx_card_price(const dx_state *s, int p, int card, int *trade) {
    *trade = 0;
    const dx_city *city = &s->p[p];
    if (card >= DX_FIRST_SENATOR) /* as many coins as Senators already recruited */
        return dx_has(city->tokens, DX_T_CORRUPTION) ? 0 : dc_pop_cards(city->cards & DX_SENATOR);
    if (dx_is_chained(s, p, card)) return 0;
    const dc_card_spec *spec = &DX_CARDS_TABLE[card];
    int waive = dx_has(city->tokens, DC_T_MASONRY) && dc_has_card(DX_BLUE, card) ? 2 : 0;
    if (!spec->needs_nothing) *trade = dx_trade_cost(s, p, spec->need, waive);
    int total = spec->coin_cost + *trade;
    if (s->expansions & DX_AGORA) {
        int colour = DX_CARD_COLOUR[card]; /* DX_COLOUR_NAMES: green 3, yellow 4, red 5 */
        int waiver = colour == 4 ? DX_D_YELLOW_WAIVER
                     : colour == 5 ? DX_D_RED_WAIVER
                     : colour == 3 ? DX_D_GREEN_WAIVER
                                   : -1;
        if (waiver >= 0 && dx_in_force(s, p, waiver)) { /* ignore one symbol of the cost */
            int best_total = total, best_trade = *trade;
            if (spec->coin_cost &&
                (*trade < best_total || (*trade == best_total && *trade < best_trade))) {
                best_total = *trade;
                best_trade = *trade;
            }
            for (int r = 0; r < 5; r++) {
                if (!spec->need[r]) continue;
                uint8_t fewer[5];
                memcpy(fewer, spec->need, 5);
                fewer[r]--;
                int cheaper = dx_trade_cost(s, p, fewer, waive), t = spec->coin_cost + cheaper;
                if (t < best_total || (t == best_total && cheaper < best_trade)) {
                    best_total = t;
                    best_trade = cheaper;
                }
            }
            total = best_total;
            *trade = best_trade;
        }
    }
    int chain_symbol = spec->chain_from || (card >= DX_FIRST_TEMPLE && card < DX_FIRST_SENATOR);
    if (dx_has(city->tokens, DX_T_ENGINEERING) && chain_symbol && total > 1) {
        *trade = 0; /* paid to the bank: not a trade (Economy) */
        return 1;
    }
    return total;
}

/* XState.wonder_cost */
static inline int dx_wonder_cost(const dx_state *s, int p, int w) {
    const dc_wonder_spec *spec = &DX_WONDERS_TABLE[w];
    if (spec->needs_nothing) return 0;
    int waive = dx_has(s->p[p].tokens, DC_T_ARCHITECTURE) ? 2 : 0;
    if (dx_in_force(s, p, DX_D_WONDER_WAIVER)) waive++;
    return dx_trade_cost(s, p, spec->need, waive);
}

/* XState.activation_price: coins to activate the card on `space` (0-5) before Offerings. */
static inline int dx_activation_price(const dx_state *s, int p, int space) {
    int price = p == 0 ? DX_SPACE_PRICE_A[space] : DX_SPACE_PRICE_B[space];
    if (s->spaces[space].divinity == DX_GATE) price *= 2;
    if (dx_has(s->p[p].built, DX_W_SANCTUARY)) price -= 2;
    return price > 0 ? price : 0;
}

static inline int dx_funds(const dx_city *city) { return city->coins + city->astarte; }

/* category_count */
static inline int dx_category_count(const dx_state *s, int p, const dc_category *cat) {
    const dx_city *city = &s->p[p];
    int n = dc_pop_cards(city->cards & cat->colours);
    if (cat->wonder) n += dc_pop32(city->built);
    if (cat->coins_div3) n += city->coins / 3;
    return n;
}

static inline int dx_card_points(dc_cards cards) {
    int total = 0, list[DX_N_CARDS], n = dc_card_list(cards, list);
    for (int i = 0; i < n; i++) total += DX_CARDS_TABLE[list[i]].points;
    return total;
}

/* XState.score(player).total, by category in the order of XScore.CATEGORIES. */
enum { DX_SC_BLUE, DX_SC_GREEN, DX_SC_YELLOW, DX_SC_PURPLE, DX_SC_WONDERS, DX_SC_TOKENS, DX_SC_COINS,
       DX_SC_MILITARY, DX_SC_DIVINITIES, DX_SC_SENATE, DX_N_SCORES };

DX_API void dx_score(const dx_state *s, int player, int out[DX_N_SCORES]) {
    const dx_city *city = &s->p[player];
    out[DX_SC_BLUE] = dx_card_points(city->cards & DX_BLUE);
    out[DX_SC_GREEN] = dx_card_points(city->cards & DX_GREEN);
    out[DX_SC_YELLOW] = dx_card_points(city->cards & DX_YELLOW);
    int purple = DX_TEMPLE_POINTS[dc_pop_cards(city->cards & DX_TEMPLES)];
    int list[DX_N_CARDS], n = dc_card_list(city->cards & DC_PURPLE, list);
    for (int i = 0; i < n; i++) {
        const dc_category *rule = &DX_CARDS_TABLE[list[i]].points_per_max;
        int a = dx_category_count(s, 0, rule), b = dx_category_count(s, 1, rule);
        purple += rule->each * (a > b ? a : b);
    }
    out[DX_SC_PURPLE] = purple;
    int wonders = 0;
    for (uint32_t w = city->built; w; w &= w - 1) wonders += DX_WONDERS_TABLE[dc_ctz32(w)].points;
    out[DX_SC_WONDERS] = wonders;
    int tokens = 0;
    for (uint32_t t = city->tokens; t; t &= t - 1) tokens += DX_TOKENS_TABLE[dc_ctz32(t)].points;
    if (dx_has(city->tokens, DC_T_MATHEMATICS)) tokens += 3 * dc_pop32(city->tokens);
    if (dx_has(city->tokens, DX_T_MYSTICISM))
        tokens += 2 * (city->n_mythology + dc_pop32(city->offerings));
    out[DX_SC_TOKENS] = tokens;
    out[DX_SC_COINS] = city->coins / 3;
    int pawn = player == 0 ? s->pawn : -s->pawn;
    out[DX_SC_MILITARY] = pawn <= 0 ? 0 : pawn <= 2 ? 2 : pawn <= 5 ? 5 : 10;
    int divinities = city->astarte;
    for (int k = 0; k < city->n_divinities; k++)
        if (city->divinities[k] == DX_APHRODITE) divinities += DX_DIVINITIES[DX_APHRODITE].amount;
    out[DX_SC_DIVINITIES] = divinities;
    out[DX_SC_SENATE] = s->expansions & DX_AGORA ? dx_senate_points(s, player) : 0;
}

DX_API int dx_total_points(const dx_state *s, int player) {
    int parts[DX_N_SCORES], total = 0;
    dx_score(s, player, parts);
    for (int i = 0; i < DX_N_SCORES; i++) total += parts[i];
    return total;
}

/* XState.view: what `player` knows (the opponent's private cards become DX_UNKNOWN). */
DX_API void dx_view(const dx_state *s, int player, dx_state *out) {
    *out = *s;
    out->observer = (int8_t)player;
    for (int i = 0; i < DX_SPACES; i++) {
        dx_space *space = &out->spaces[i];
        if (space->divinity != DX_EMPTY && !space->face_up && space->owner != player)
            space->divinity = DX_UNKNOWN;
    }
    for (int m = 0; m < DX_N_MYTHOLOGIES; m++)
        for (int k = 0; k < out->n_tops[m]; k++)
            if (!(out->top_known_to[m][k] >> player & 1)) out->top_divinity[m][k] = DX_UNKNOWN;
    if (s->phase == DX_SEAT && s->to_move != player) {
        out->drawn_unseen = 1;
        out->n_drawn = 0;
        out->drawn[0] = out->drawn[1] = 0;
    }
    if (s->expansions & DX_AGORA) {
        dx_city *other = &out->p[1 - player];
        for (int k = 0; k < other->n_plots; k++)
            if (!(other->plot_flags[k] & DX_PLOT_USED)) other->plot_name[k] = DX_UNKNOWN;
        for (int k = 0; k < out->n_plot_top; k++)
            if (!(out->plot_top_known[k] >> player & 1)) out->plot_top[k] = DX_UNKNOWN;
        for (int k = 0; k < out->n_plot_bottom; k++)
            if (!(out->plot_bottom_known[k] >> player & 1)) out->plot_bottom[k] = DX_UNKNOWN;
        if (s->phase == DX_KEEP_PLOT && s->to_move != player) {
            out->drawn_plots_unseen = 1;
            out->n_drawn_plots = 0;
            out->drawn_plots[0] = out->drawn_plots[1] = 0;
        }
        if (s->removed_by >= 0 && s->removed_by != player) {
            out->removed_now_none = 1;
            out->n_removed_now = 0;
            memset(out->removed_now, 0, sizeof out->removed_now);
        }
    }
}

DX_API void dx_new_game(dx_state *s, int expansions) {
    memset(s, 0, sizeof *s);
    s->expansions = (uint8_t)expansions;
    s->observer = -1;
    s->phase = DX_SETUP_TOKENS;
    memset(s->pyramid, DC_HIDDEN, sizeof s->pyramid);
    s->military = 0xF;
    s->wonders_unseen = (uint16_t)((1u << DC_N_WONDERS) - 1);
    if (expansions & DX_PANTHEON) s->wonders_unseen |= 3u << 12;
    if (expansions & DX_AGORA) s->wonders_unseen |= 3u << 14;
    s->winner = -1;
    s->minerva = DX_NO_MINERVA;
    for (int p = 0; p < 2; p++) {
        s->p[p].coins = 7;
        s->p[p].snake = -1;
        memset(s->p[p].under, -1, sizeof s->p[p].under);
    }
    for (int i = 0; i < DX_SPACES; i++) s->spaces[i].divinity = DX_EMPTY;
    if (expansions & DX_PANTHEON)
        for (int m = 0; m < DX_N_MYTHOLOGIES; m++) s->deck_size[m] = DX_MYTHOLOGY_SIZE[m];
    memset(s->mythology_on, -1, sizeof s->mythology_on);
    s->drawing = -1;
    for (int p = 0; p < 2; p++) memset(s->p[p].plot_card, -1, sizeof s->p[p].plot_card);
    if (expansions & DX_AGORA) s->plot_size = DX_N_CONSPIRACIES;
    s->removed_now_none = 1;
    s->removed_by = -1;
}

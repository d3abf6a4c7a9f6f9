/*
 * rollout.h -- the playout policies of the compiled MCTS (cmcts_module.c). Include after
 * duel_core.c.
 *
 * Two policies:
 *
 * - ROLLOUT_POLICY_KIND: MCTS-BR's published idea (a wonder 1/2, a build 0.35, a discard 0.15,
 *   uniformly among the legal moves of that kind). Cheap, but it builds whatever it meets.
 * - ROLLOUT_POLICY_SCORED: our own. Every legal move gets a cheap score in victory points for the
 *   mover (the card's points, coins, shields weighted by how close the pawn is to a capital,
 *   science symbols weighted by how many the mover already has, production the mover lacks,
 *   chains, guilds, the price paid; a wonder's effects; plus a share of what the card would be
 *   worth to the opponent, because taking or discarding it denies it). The rollout plays the best
 *   move after adding uniform noise to each score (a randomised greedy), and with probability
 *   `eps` a uniformly random legal move. Each simulated player gets a strategy mode per rollout
 *   (normal or science, 50/50), which scales the science terms: a rollout is then a sample of
 *   plausible plans, not of one fixed style.
 *
 * Scores are in rough victory points: a coin is a third of a point, a progress token about four,
 * an immediate military or science victory is worth 100.
 */
#ifndef SOLVERS_ROLLOUT_H
#define SOLVERS_ROLLOUT_H

enum { ROLLOUT_POLICY_KIND = 0, ROLLOUT_POLICY_SCORED = 1 };
enum { MODE_NORMAL = 0, MODE_SCIENCE = 1, MODE_MILITARY = 2, N_MODES = 3 };

typedef struct {
    int policy;
    double eps;     /* probability of a uniformly random move */
    double noise;   /* uniform noise added to each score, in points */
    double deny;    /* weight of the opponent's value of the card taken */
    double military; /* weight of the pawn-pressure terms of a shield's value */
    int modes;      /* 0: normal only; 1: normal or science, 50/50, per player per rollout;
                       2: per player, a bandit at the root over normal / science / military */
} rollout_cfg;


static inline double rng_unit(dc_rng *rng) {
    return (double)(dc_rng_next(rng) >> 11) * (1.0 / 9007199254740992.0);
}

/* How much `shields` more shields are worth to `player` now: the points they bring on the track,
 * more when the pawn is near either capital, and a win when they reach it. */
static double shield_value(const dc_state *s, int player, int shields, double pressure) {
    if (!shields) return 0.0;
    if (s->p[player].tokens >> DC_T_STRATEGY & 1) shields++;
    int pos = player == 0 ? s->pawn : -s->pawn; /* > 0: towards the opponent's capital */
    int to = pos + shields;
    if (to >= 9) return 100.0;
    double v = (double)(dc_military_points(0, to) - dc_military_points(0, pos));
    /* loot: 2 / 5 coins when crossing 3 / 6 */
    int side = player == 0 ? 2 : 0;
    if (pos < 3 && to >= 3 && (s->military & (1 << side))) v += 2.0 / 3.0 + 1.0;
    if (pos < 6 && to >= 6 && (s->military & (2 << side))) v += 5.0 / 3.0 + 1.5;
    /* pressure: pulling the pawn away from our capital, or towards theirs */
    double w = 0.8;
    if (pos <= -3) w += 1.0;
    if (to >= 6) w += 1.5;
    return v + pressure * w * shields;
}

/* Value of gaining a science symbol (bit) for `player` in `mode`. */
static double science_value(const dc_state *s, int player, int bit, int mode) {
    const dc_player *me = &s->p[player];
    if (!bit) return 0.0;
    if (me->science & bit) return s->board ? 4.0 : 0.0; /* a pair: a progress token */
    int have = __builtin_popcount(me->science);
    if (have >= 5) return 100.0;
    double v = 1.5 + 0.8 * have;
    if (have == 4) v += 4.0;
    return mode == MODE_SCIENCE ? 2.0 * v + 2.0 : v;
}

/* Value of adding `econ` (packed production) to `player`'s city. */
static double econ_value(const dc_state *s, int player, uint32_t econ) {
    if (!econ) return 0.0;
    int age = s->age;
    double lack = age == 1 ? 2.2 : age == 2 ? 1.6 : 0.4, more = age == 1 ? 0.8 : age == 2 ? 0.6 : 0.1;
    uint32_t have = s->p[player].econ;
    double v = 0.0;
    for (int r = 0; r < 5; r++) {
        int add = (econ >> (3 * r)) & 7;
        if (!add) continue;
        int units = (have >> (3 * r)) & 7;
        v += units == 0 ? lack + more * (add - 1) : units == 1 ? more * add : 0.2 * add;
    }
    int choices = ((econ >> DC_RAW_CHOICE_SHIFT) & 3) + ((econ >> DC_MAN_CHOICE_SHIFT) & 3);
    v += choices * (age <= 2 ? 1.5 : 0.5);
    v += __builtin_popcount((econ >> DC_FIXED_SHIFT) & 31) * (age <= 2 ? 1.0 : 0.4);
    return v;
}

/* What building card `c` brings `player` (before its price). */
static double card_value(const dc_state *s, int player, int c, int mode,
                         const rollout_cfg *cfg) {
    const dc_card_spec *spec = &DC_CARDS_TABLE[c];
    double v = spec->points + spec->coins / 3.0;
    if (spec->coins_per.each)
        v += spec->coins_per.each * dc_category_count(s, player, &spec->coins_per) / 3.0;
    if (spec->coins_per_max.each) {
        int a = dc_category_count(s, 0, &spec->coins_per_max);
        int b = dc_category_count(s, 1, &spec->coins_per_max);
        v += spec->coins_per_max.each * (a > b ? a : b) / 3.0;
    }
    if (spec->points_per_max.each) { /* a guild: its points as things stand, plus a little */
        int a = dc_category_count(s, 0, &spec->points_per_max);
        int b = dc_category_count(s, 1, &spec->points_per_max);
        v += spec->points_per_max.each * (a > b ? a : b) + 1.0;
    }
    v += shield_value(s, player, spec->shields,
                      mode == MODE_MILITARY ? 2.5 * cfg->military + 1.0 : cfg->military);
    v += science_value(s, player, spec->science, mode);
    v += econ_value(s, player, spec->econ);
    if (spec->chain_gives && s->age < 3) v += 0.8;
    return v;
}

static double wonder_value(const dc_state *s, int player, int w, const rollout_cfg *cfg) {
    const dc_wonder_spec *spec = &DC_WONDERS_TABLE[w];
    double v = 1.0 + spec->points + spec->coins / 3.0 + spec->opponent_loses / 3.0;
    v += shield_value(s, player, spec->shields, cfg->military);
    v += econ_value(s, player, spec->econ);
    if (spec->extra_turn) v += 2.5;
    if (spec->destroy) {
        dc_cards colour = spec->destroy == 1 ? DC_BROWN : DC_GREY;
        if (s->p[1 - player].cards & colour) v += 1.5;
    }
    if (spec->mausoleum && s->discard) v += 2.5;
    if (spec->library) v += 3.0;
    return v;
}

static double token_value(const dc_state *s, int player, int token, int mode) {
    switch (token) {
    case DC_T_LAW: return science_value(s, player, DC_SCIENCE_LAW_BIT, mode) + 1.0;
    case DC_T_AGRICULTURE: return 6.0;
    case DC_T_PHILOSOPHY: return 7.0;
    case DC_T_MATHEMATICS: return 3.0 + 3.0 * __builtin_popcount(s->p[player].tokens);
    case DC_T_ECONOMY: return 4.0;
    case DC_T_STRATEGY: return 3.0 + (s->age < 3 ? 1.5 : 0.5);
    case DC_T_THEOLOGY: return s->age < 3 ? 4.5 : 2.5;
    case DC_T_URBANISM: return 3.5;
    case DC_T_MASONRY: return s->age < 3 ? 3.5 : 2.0;
    case DC_T_ARCHITECTURE: return __builtin_popcount(s->p[player].wonders) ? 4.0 : 1.0;
    default: return 2.0;
    }
}

/* The scored policy's score of one decision (no noise), for the tree's prior. */
static double move_score(const dc_state *st, int32_t m, const rollout_cfg *cfg) {
    int p = st->to_move, kind = DC_MOVE_KIND(m);
    if (kind == DC_TOKEN) return token_value(st, p, DC_MOVE_A(m), MODE_NORMAL);
    if (kind == DC_MAUSOLEUM_CARD) return card_value(st, p, DC_MOVE_B(m), MODE_NORMAL, cfg);
    if (kind == DC_DESTROY_CARD) return card_value(st, 1 - p, DC_MOVE_B(m), MODE_NORMAL, cfg);
    if (kind > DC_WONDER) return 0.0;
    int c = DC_MOVE_B(m);
    double o = card_value(st, 1 - p, c, MODE_NORMAL, cfg);
    if (dc_card_price(st, 1 - p, c) > st->p[1 - p].coins) o *= 0.5;
    double v = cfg->deny * (o > 0 ? o : 0);
    if (kind == DC_BUILD)
        return v + card_value(st, p, c, MODE_NORMAL, cfg) - dc_card_price(st, p, c) / 3.0;
    if (kind == DC_DISCARD)
        return v + (2 + dc_pop_cards(st->p[p].cards & DC_YELLOW)) / 3.0 - 0.5;
    int w = DC_MOVE_A(m);
    return v + wonder_value(st, p, w, cfg) - dc_wonder_price(st, p, w) / 3.0;
}

/* The scored policy's move. `mode` holds each player's strategy mode. */
static int32_t scored_move(const dc_state *st, dc_rng *rng, const rollout_cfg *cfg,
                           const uint8_t mode[2]) {
    int32_t moves[DC_MAX_MOVES];
    int n = dc_legal_moves(st, moves);
    if (n == 1) return moves[0];
    if (cfg->eps > 0 && rng_unit(rng) < cfg->eps) return moves[dc_rng_below(rng, (uint64_t)n)];
    int p = st->to_move;
    double best = -1e300;
    int32_t pick = moves[0];
    switch (st->phase) {
    case DC_PLAY: {
        /* per accessible card: its value to me as a build, and to the opponent (denial) */
        double mine[DC_N_CARDS], deny[DC_N_CARDS];
        int price[DC_N_CARDS];
        for (uint32_t acc = st->accessible; acc; acc &= acc - 1) {
            int c = st->pyramid[__builtin_ctz(acc)];
            mine[c] = card_value(st, p, c, mode[p], cfg);
            price[c] = dc_card_price(st, p, c);
            double o = card_value(st, 1 - p, c, mode[1 - p], cfg);
            if (dc_card_price(st, 1 - p, c) > st->p[1 - p].coins) o *= 0.5;
            deny[c] = cfg->deny * (o > 0 ? o : 0);
        }
        int yellow = dc_pop_cards(st->p[p].cards & DC_YELLOW);
        for (int i = 0; i < n; i++) {
            int32_t m = moves[i];
            int c = DC_MOVE_B(m), kind = DC_MOVE_KIND(m);
            double v = deny[c];
            if (kind == DC_BUILD) v += mine[c] - price[c] / 3.0;
            else if (kind == DC_DISCARD) v += (2 + yellow) / 3.0 - 0.5;
            else {
                int w = DC_MOVE_A(m);
                v += wonder_value(st, p, w, cfg) - dc_wonder_price(st, p, w) / 3.0;
            }
            v += cfg->noise * rng_unit(rng);
            if (v > best) best = v, pick = m;
        }
        return pick;
    }
    case DC_CHOOSE_TOKEN:
    case DC_LIBRARY_CHOOSE:
        for (int i = 0; i < n; i++) {
            double v = token_value(st, p, DC_MOVE_A(moves[i]), mode[p]) + cfg->noise * rng_unit(rng);
            if (v > best) best = v, pick = moves[i];
        }
        return pick;
    case DC_MAUSOLEUM:
        for (int i = 0; i < n; i++) {
            double v = card_value(st, p, DC_MOVE_B(moves[i]), mode[p], cfg) + cfg->noise * rng_unit(rng);
            if (v > best) best = v, pick = moves[i];
        }
        return pick;
    case DC_DESTROY:
        for (int i = 0; i < n; i++) {
            double v = card_value(st, 1 - p, DC_MOVE_B(moves[i]), mode[1 - p], cfg) +
                       cfg->noise * rng_unit(rng);
            if (v > best) best = v, pick = moves[i];
        }
        return pick;
    default: return moves[dc_rng_below(rng, (uint64_t)n)];
    }
}

/* MCTS-BR's rollout policy (in words in the file comment). */
static int32_t kind_move(const dc_state *st, dc_rng *rng) {
    int32_t moves[DC_MAX_MOVES], picked[DC_MAX_MOVES];
    int n = dc_legal_moves(st, moves);
    if (st->phase != DC_PLAY) return moves[dc_rng_below(rng, (uint64_t)n)];
    double r = rng_unit(rng);
    int want = r < 0.5 ? DC_WONDER : r < 0.85 ? DC_BUILD : DC_DISCARD;
    int k = 0;
    for (int i = 0; i < n; i++)
        if (DC_MOVE_KIND(moves[i]) == want) picked[k++] = moves[i];
    if (!k && want == DC_WONDER)
        for (int i = 0; i < n; i++)
            if (DC_MOVE_KIND(moves[i]) == DC_BUILD) picked[k++] = moves[i];
    if (!k)
        for (int i = 0; i < n; i++)
            if (DC_MOVE_KIND(moves[i]) == DC_DISCARD) picked[k++] = moves[i];
    if (!k) return moves[dc_rng_below(rng, (uint64_t)n)];
    return picked[dc_rng_below(rng, (uint64_t)k)];
}

static int32_t rollout_policy_move(const dc_state *st, dc_rng *rng, const rollout_cfg *cfg,
                                   const uint8_t mode[2]) {
    return cfg->policy == ROLLOUT_POLICY_SCORED ? scored_move(st, rng, cfg, mode)
                                                : kind_move(st, rng);
}

#endif /* SOLVERS_ROLLOUT_H */

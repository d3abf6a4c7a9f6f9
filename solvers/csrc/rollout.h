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

enum { ROLLOUT_POLICY_KIND = 0, ROLLOUT_POLICY_SCORED = 1, ROLLOUT_POLICY_PLANS = 2 };
enum { MODE_NORMAL = 0, MODE_SCIENCE = 1, MODE_MILITARY = 2, N_MODES = 3 };

typedef struct {
    int policy;
    double eps;     /* probability of a uniformly random move */
    double noise;   /* uniform noise added to each score, in points */
    double deny;    /* weight of the opponent's value of the card taken */
    double military; /* weight of the pawn-pressure terms of a shield's value */
    int modes;      /* 0: normal only; 1: normal or science, 50/50, per player per rollout;
                       2: per player, a bandit at the root over normal / science / military */
    int block_science; /* plans: take or discard a card that would give the opponent a 5th or
                          6th science symbol */
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


/* --- ROLLOUT_POLICY_PLANS ---------------------------------------------------------------------
 * MCTS-BR's playout policy as its author describes it, written for our engine: a random card and
 * a random kind (discard 0.15, build 0.35, wonder 0.5; the wonder share drops out when the
 * player can build no more wonders), redrawn until the pair is affordable; before that, three
 * preferences: a player on a science plan builds an affordable green card, takes Law when offered
 * a token and a green card from the discard; on that plan a Play Again wonder is built when taking
 * its card uncovers a face-up green card the player can then afford (the Mausoleum in Age III
 * when the discard holds a green card); and in Age I an affordable resource or commercial card
 * (brown, grey, yellow) is built first. The starting player chosen is always oneself. */

/* A uniformly random legal move among those `keep` accepts, or -1. */
static int32_t plans_pick(const int32_t *moves, int n, dc_rng *rng, int (*keep)(int32_t, const dc_state *),
                          const dc_state *st) {
    int32_t picked[DC_MAX_MOVES];
    int k = 0;
    for (int i = 0; i < n; i++)
        if (keep(moves[i], st)) picked[k++] = moves[i];
    return k ? picked[dc_rng_below(rng, (uint64_t)k)] : -1;
}

static int keep_green_build(int32_t m, const dc_state *st) {
    (void)st;
    return DC_MOVE_KIND(m) == DC_BUILD && (DC_CARD_BIT(DC_MOVE_B(m)) & DC_GREEN);
}

static int keep_age1_economy(int32_t m, const dc_state *st) {
    (void)st;
    return DC_MOVE_KIND(m) == DC_BUILD &&
           (DC_CARD_BIT(DC_MOVE_B(m)) & (DC_BROWN | DC_GREY | DC_YELLOW));
}

static int keep_green_card(int32_t m, const dc_state *st) {
    (void)st;
    return (DC_CARD_BIT(DC_MOVE_B(m)) & DC_GREEN) != 0;
}

/* The science plan's Play Again wonder: the move building it, or -1. */
static int32_t plans_wonder_lookahead(const dc_state *st, const int32_t *moves, int n, dc_rng *rng) {
    int p = st->to_move;
    /* Age III: the Mausoleum when the discard holds a green card */
    if (st->age == 3 && (st->discard & DC_GREEN)) {
        int32_t mausoleum[DC_MAX_MOVES];
        int k = 0;
        for (int i = 0; i < n; i++)
            if (DC_MOVE_KIND(moves[i]) == DC_WONDER &&
                DC_WONDERS_TABLE[DC_MOVE_A(moves[i])].mausoleum)
                mausoleum[k++] = moves[i];
        if (k) return mausoleum[dc_rng_below(rng, (uint64_t)k)];
    }
    /* one affordable Play Again wonder, at random */
    int wonders[16], nw = 0;
    for (uint32_t w = st->p[p].wonders; w; w &= w - 1) {
        int id = __builtin_ctz(w);
        if (DC_WONDERS_TABLE[id].extra_turn && dc_wonder_price(st, p, id) <= st->p[p].coins)
            wonders[nw++] = id;
    }
    if (!nw) return -1;
    int w = wonders[dc_rng_below(rng, (uint64_t)nw)];
    /* the accessible cards in random order: one whose taking uncovers a face-up green card
     * that is affordable once the wonder is built */
    int32_t order[DC_MAX_MOVES];
    int k = 0;
    for (int i = 0; i < n; i++)
        if (DC_MOVE_KIND(moves[i]) == DC_WONDER && DC_MOVE_A(moves[i]) == w) order[k++] = moves[i];
    for (int i = k - 1; i > 0; i--) {
        int j = (int)dc_rng_below(rng, (uint64_t)(i + 1));
        int32_t t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    for (int i = 0; i < k; i++) {
        int card = DC_MOVE_B(order[i]), slot = -1;
        for (uint32_t acc = st->accessible; acc; acc &= acc - 1)
            if (st->pyramid[__builtin_ctz(acc)] == card) slot = __builtin_ctz(acc);
        if (slot < 0) continue;
        dc_state after = *st;
        int applied = 0;
        for (uint32_t under = DC_COVERS[st->age][slot]; under; under &= under - 1) {
            int u = __builtin_ctz(under), c = st->pyramid[u];
            if (c < 0 || !(DC_CARD_BIT(c) & DC_GREEN)) continue;
            if ((st->present & DC_COVERED_BY[st->age][u]) != (1u << slot)) continue;
            if (!applied) dc_apply(&after, order[i]), applied = 1;
            if (dc_card_price(&after, p, c) <= after.p[p].coins) return order[i];
        }
    }
    return -1;
}

/* A card that would give the opponent a 5th or 6th different science symbol: build it if
 * affordable, else discard it; -1 if there is none. */
static int32_t plans_block_science(const dc_state *st, const int32_t *moves, int n) {
    int p = st->to_move;
    uint8_t theirs = st->p[1 - p].science;
    if (__builtin_popcount(theirs) < 4) return -1;
    int32_t discard = -1;
    for (int i = 0; i < n; i++) {
        int kind = DC_MOVE_KIND(moves[i]);
        if (kind != DC_BUILD && kind != DC_DISCARD) continue;
        int bit = DC_CARDS_TABLE[DC_MOVE_B(moves[i])].science;
        if (!bit || (theirs & bit)) continue;
        if (kind == DC_BUILD) return moves[i];
        if (discard < 0) discard = moves[i];
    }
    return discard;
}

static int32_t plans_move(const dc_state *st, dc_rng *rng, const uint8_t mode[2],
                          int block_science) {
    int32_t moves[DC_MAX_MOVES];
    int n = dc_legal_moves(st, moves);
    if (n == 1) return moves[0];
    int p = st->to_move, science = mode[p] == MODE_SCIENCE;
    int32_t m;
    switch (st->phase) {
    case DC_PLAY:
        break;
    case DC_CHOOSE_TOKEN:
    case DC_LIBRARY_CHOOSE:
        if (science)
            for (int i = 0; i < n; i++)
                if (DC_MOVE_A(moves[i]) == DC_T_LAW) return moves[i];
        return moves[dc_rng_below(rng, (uint64_t)n)];
    case DC_MAUSOLEUM:
        if (science && (m = plans_pick(moves, n, rng, keep_green_card, st)) >= 0) return m;
        return moves[dc_rng_below(rng, (uint64_t)n)];
    case DC_CHOOSE_STARTER:
        for (int i = 0; i < n; i++)
            if (DC_MOVE_A(moves[i]) == p) return moves[i];
        return moves[0];
    default:
        return moves[dc_rng_below(rng, (uint64_t)n)];
    }
    if (science && (m = plans_pick(moves, n, rng, keep_green_build, st)) >= 0) return m;
    if (block_science && (m = plans_block_science(st, moves, n)) >= 0) return m;
    int built = __builtin_popcount(st->p[0].built | st->p[1].built);
    int can_wonder = built < 7 && st->p[p].wonders;
    if (science && can_wonder && (m = plans_wonder_lookahead(st, moves, n, rng)) >= 0) return m;
    if (st->age == 1 && (m = plans_pick(moves, n, rng, keep_age1_economy, st)) >= 0) return m;
    /* a random card and kind until the pair is affordable */
    int cards[DC_SLOTS], nc = 0;
    for (uint32_t acc = st->accessible; acc; acc &= acc - 1)
        cards[nc++] = st->pyramid[__builtin_ctz(acc)];
    int owned[16], no = 0;
    for (uint32_t w = st->p[p].wonders; w; w &= w - 1) owned[no++] = __builtin_ctz(w);
    for (int tries = 0; tries < 1000; tries++) {
        int c = cards[dc_rng_below(rng, (uint64_t)nc)];
        double r = rng_unit(rng) * (can_wonder ? 1.0 : 0.5);
        if (r < 0.15) return DC_MOVE(DC_DISCARD, 0, c);
        if (r < 0.5) {
            if (dc_card_price(st, p, c) <= st->p[p].coins) return DC_MOVE(DC_BUILD, 0, c);
        } else {
            int w = owned[dc_rng_below(rng, (uint64_t)no)];
            if (dc_wonder_price(st, p, w) <= st->p[p].coins) return DC_MOVE(DC_WONDER, w, c);
        }
    }
    return moves[dc_rng_below(rng, (uint64_t)n)];
}

static int32_t rollout_policy_move(const dc_state *st, dc_rng *rng, const rollout_cfg *cfg,
                                   const uint8_t mode[2]) {
    if (cfg->policy == ROLLOUT_POLICY_SCORED) return scored_move(st, rng, cfg, mode);
    if (cfg->policy == ROLLOUT_POLICY_PLANS) return plans_move(st, rng, mode, cfg->block_science);
    return kind_move(st, rng);
}

#endif /* SOLVERS_ROLLOUT_H */

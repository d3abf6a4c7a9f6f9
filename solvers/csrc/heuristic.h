/*
 * heuristic.h -- the hand-made evaluation of solvers/search.py (`_margin`, `evaluate`,
 * `_static_score`) in C, shared by the compiled searches (csearch_module.c, cmcts_module.c).
 * Include after duel_core.c. Values are P(A wins) + P(shared)/2 in (0, 1).
 */
#ifndef SOLVERS_HEURISTIC_H
#define SOLVERS_HEURISTIC_H

#include <math.h>

/* --- evaluation: solvers/search.py `_margin` and `evaluate` ------------------------------- */
static const double TEMPERATURE[4] = {7.0, 7.0, 5.0, 3.0};
static const double COIN_BONUS[4] = {0.15, 0.15, 0.1, 0.05};
static const double WONDER_BONUS[4] = {1.5, 1.5, 1.5, 0.75};
static const double PRODUCTION_WEIGHT[4] = {1.0, 1.0, 0.7, 0.25};
static const double SCIENCE_THREAT[8] = {0.0, 0.0, 0.0, 0.0, 3.0, 10.0, 10.0, 10.0};

static double threat(int pawn) {
    if (pawn >= 5) return 1.5 * (pawn - 4) * (pawn - 4);
    if (pawn <= -5) return -1.5 * (-pawn - 4) * (-pawn - 4);
    return 0.0;
}

static double production_value(uint32_t econ) {
    double v = 0.0;
    for (int r = 0; r < 5; r++) {
        int units = (econ >> (3 * r)) & 7;
        v += (r < 3 ? 1.0 : 1.3) * (units < 2 ? units : 2) + 0.3 * (units > 2 ? units - 2 : 0);
    }
    v += 1.0 * ((econ >> 15) & 3) + 1.2 * ((econ >> 17) & 3);
    v += 0.7 * __builtin_popcount((econ >> 19) & 31);
    return v;
}

static double margin(const dc_state *s) {
    const dc_player *a = &s->p[0], *b = &s->p[1];
    double m = (double)(dc_total_points(s, 0) - dc_total_points(s, 1));
    m += threat(s->pawn);
    m += SCIENCE_THREAT[__builtin_popcount(a->science)] - SCIENCE_THREAT[__builtin_popcount(b->science)];
    int age = s->age;
    m += COIN_BONUS[age] * (a->coins - b->coins);
    m += PRODUCTION_WEIGHT[age] *
         (production_value(a->econ & 0xFFFFFFu) - production_value(b->econ & 0xFFFFFFu));
    if (__builtin_popcount((uint32_t)(a->built | b->built)) < 7)
        m += WONDER_BONUS[age] *
             (__builtin_popcount(a->wonders) - __builtin_popcount(b->wonders));
    double bonus = (s->phase == DC_CHOOSE_TOKEN || s->phase == DC_LIBRARY_CHOOSE) ? 4.5 : 0.5;
    return s->to_move == 0 ? m + bonus : m - bonus;
}

static double terminal_value(const dc_state *s) {
    return s->winner == 0 ? 1.0 : s->winner == 1 ? 0.0 : 0.5;
}

static double evaluate(const dc_state *s) {
    if (s->phase == DC_GAME_OVER) return terminal_value(s);
    double x = margin(s) / TEMPERATURE[s->age];
    if (x > 30.0) x = 30.0;
    else if (x < -30.0) x = -30.0;
    return 1.0 / (1.0 + exp(-x));
}

/* solvers/search.py `_static_score`: a-priori interest of a move, for ordering only. */
static double static_score(int32_t move) {
    int kind = DC_MOVE_KIND(move);
    if (kind == DC_BUILD || kind == DC_MAUSOLEUM_CARD) {
        int c = DC_MOVE_B(move);
        const dc_card_spec *card = &DC_CARDS_TABLE[c];
        double score = card->points + 2.0 * card->shields + (card->science ? 3.0 : 0.0) +
                       card->coins / 3.0;
        if (dc_has_card(DC_PURPLE, c)) score += 3.0;
        return score;
    }
    if (kind == DC_WONDER) {
        const dc_wonder_spec *w = &DC_WONDERS_TABLE[DC_MOVE_A(move)];
        return w->points + 3.0 * w->shields + (w->extra_turn ? 2.0 : 0.0) + 1.0;
    }
    if (kind == DC_DISCARD) return -1.0;
    return 0.0;
}

#endif /* SOLVERS_HEURISTIC_H */

/*
 * csearch/picks.h -- which Mausoleum picks and which last progress tokens need no search
 * (final_picks): the dominance tables between cards, filled once, and the pruning of a
 * decision's moves by them. Apart because it is a claim about the rules (a card another card
 * of the pile beats is never better for its builder), tested against the unpruned search on
 * its own, and the exact nodes only call skip_beaten.
 */
/* The Mausoleum's pick (exact solves, final_picks). Its builder M takes one card of the discard
 * pile; a card that another card of the pile beats needs no search, because the other is at
 * least as good for M whatever follows:
 *   - anywhere, a card equal in every effect but with more points (PICK_BEATEN_BY);
 *   - as M's last action (the game then ends, or the other side O takes the last card), its
 *     chain, one-of production and fixed prices serve nobody any more, so the card only has to
 *     be equal in colour, science, coins and counts, with at least the points
 *     (LAST_BEATEN_BY); and, unless a guild that counts coins is owned or may be the last
 *     card, at least the shields and the production of each resource too
 *     (LAST_FREE_BEATEN_BY[0]): the pawn further towards O and O's prices higher only take coins
 *     and options from O (such a guild is the exception: the richest city's count moves with
 *     the coins O loses, or M gains through Economy).
 * Equal cards: the lower id beats the other, so the beaten are never all of them. */
static dc_cards PICK_BEATEN_BY[DC_N_CARDS], LAST_BEATEN_BY[DC_N_CARDS];
static dc_cards MORE_BEATEN_BY[DC_N_CARDS], MORE_CHAIN_BEATEN_BY[DC_N_CARDS];
static dc_cards COIN_GUILDS; /* guilds that count coins */

static int same_category(const dc_category *a, const dc_category *b) {
    return a->colours == b->colours && a->wonder == b->wonder && a->coins_div3 == b->coins_div3 &&
           a->each == b->each;
}

static const dc_cards PICK_COLOURS[7] = {DC_BROWN, DC_GREY, DC_BLUE, DC_GREEN, DC_YELLOW, DC_RED, DC_PURPLE};

static int colour_of(int card) {
    for (int i = 0; i < 7; i++)
        if (PICK_COLOURS[i] >> card & 1) return i;
    return 7;
}

/* 0: a is not as good as b for its owner; 1: as good, on the points; 2: also on the shields and
 * production; 3: equal but for the points, whatever follows (chain and economy too). Colours
 * in `free` (a bit per PICK_COLOURS index) count for nothing: two cards of such colours compare
 * as if of one colour. */
static int pick_order_free(int a, int b, int free) {
    int ca = colour_of(a), cb = colour_of(b);
    if (ca != cb && !((free >> ca & 1) && (free >> cb & 1))) return 0;
    const dc_card_spec *x = &DC_CARDS_TABLE[a], *y = &DC_CARDS_TABLE[b];
    if (x->points < y->points || x->science != y->science || x->coins != y->coins ||
        !same_category(&x->coins_per, &y->coins_per) ||
        !same_category(&x->coins_per_max, &y->coins_per_max) ||
        !same_category(&x->points_per_max, &y->points_per_max))
        return 0;
    int equal = x->shields == y->shields && (x->econ & 0x7FFF) == (y->econ & 0x7FFF);
    if (equal) return x->econ == y->econ && x->chain_gives == y->chain_gives ? 3 : 1;
    if (x->shields < y->shields) return 0;
    for (int r = 0; r < 5; r++)
        if ((x->econ >> (3 * r) & 7) < (y->econ >> (3 * r) & 7)) return 0;
    return 2;
}

static int pick_order(int a, int b) { return pick_order_free(a, b, 0); }

/* At the last action, by `free`: a card beaten on the points, shields and production, the colours
 * of `free` counting for nothing ([0]: every colour counts). Filled at import for the masks
 * counted_colours() can leave (blue and purple always count: 32 of 128, about 340K comparisons). */
static dc_cards LAST_FREE_BEATEN_BY[128][DC_N_CARDS];

static void last_free_init(void) {
    for (int free = 0; free < 128; free++)
        for (int b = 0; b < DC_N_CARDS && !(free & (1 << 2 | 1 << 6)); b++) {
            dc_cards beaten = 0;
            for (int a = 0; a < DC_N_CARDS; a++) {
                if (a == b) continue;
                int ab = pick_order_free(a, b, free), ba = pick_order_free(b, a, free);
                if (ab >= 1 && (!ba || a < b)) beaten |= DC_CARD_BIT(a);
            }
            LAST_FREE_BEATEN_BY[free][b] = beaten;
        }
}

/* The colours whose count may still matter after the builder's last action: those the owned
 * guilds count, and the last card's if it is (or may be) a guild; blue always (ties). */
static int counted_colours(const dc_state *st) {
    dc_cards counted = DC_BLUE;
    for (dc_cards g = (st->p[0].cards | st->p[1].cards) & DC_PURPLE; g; g &= g - 1)
        counted |= DC_CARDS_TABLE[low_card(g)].points_per_max.colours;
    for (uint32_t m = st->present; m; m &= m - 1) {
        int card = st->pyramid[__builtin_ctz(m)];
        if (card < 0) return 127;
        if (DC_PURPLE >> card & 1)
            counted |= DC_CARDS_TABLE[card].points_per_max.colours | DC_CARDS_TABLE[card].coins_per_max.colours;
    }
    int mask = 0;
    for (int i = 0; i < 7; i++)
        if (counted & PICK_COLOURS[i]) mask |= 1 << i;
    return mask | 1 << 6; /* a guild's own effect sets it apart anyway */
}

/* Not the last action (final_picks 4): a as good as b for its owner M whatever follows, unless a
 * guild counts coins -- the same colour, science and coins, and at least the points, shields,
 * production (the other side's prices), one-of production and fixed prices (M's own); and, if
 * `chain`, b's chain symbol too (else b's chain is of no use any more). */
static int pick_more(int a, int b, int chain) {
    if (!pick_order(a, b)) return 0;
    uint32_t ea = DC_CARDS_TABLE[a].econ, eb = DC_CARDS_TABLE[b].econ;
    if ((ea >> DC_RAW_CHOICE_SHIFT & 3) < (eb >> DC_RAW_CHOICE_SHIFT & 3) ||
        (ea >> DC_MAN_CHOICE_SHIFT & 3) < (eb >> DC_MAN_CHOICE_SHIFT & 3) ||
        ((eb >> DC_FIXED_SHIFT) & 31 & ~((ea >> DC_FIXED_SHIFT) & 31)))
        return 0;
    uint32_t ca = DC_CARDS_TABLE[a].chain_gives, cb = DC_CARDS_TABLE[b].chain_gives;
    return !chain || !cb || ca == cb;
}

static void pick_tables_init(void) {
    last_free_init();
    for (int b = 0; b < DC_N_CARDS; b++) {
        if ((DC_PURPLE >> b & 1) && DC_CARDS_TABLE[b].points_per_max.coins_div3) COIN_GUILDS |= DC_CARD_BIT(b);
        for (int a = 0; a < DC_N_CARDS; a++) {
            if (a == b) continue;
            int ab = pick_order(a, b), ba = pick_order(b, a);
            /* a beats b: as good, and b not as good back (or the lower id of two equal) */
            if (ab >= 3 && (ba < 3 || a < b)) PICK_BEATEN_BY[b] |= DC_CARD_BIT(a);
            if (ab >= 1 && ab != 2 && (!(ba >= 1 && ba != 2) || a < b)) LAST_BEATEN_BY[b] |= DC_CARD_BIT(a);
            for (int chain = 0; chain < 2; chain++) {
                int m_ab = pick_more(a, b, chain), m_ba = pick_more(b, a, chain);
                if (m_ab && (!m_ba || a < b)) (chain ? MORE_CHAIN_BEATEN_BY : MORE_BEATEN_BY)[b] |= DC_CARD_BIT(a);
            }
        }
    }
}

/* The picks worth searching (moves: the pile's cards, in dc_legal_moves' order, kept); `level`
 * as final_picks: 1 PICK_BEATEN_BY, 2 LAST_BEATEN_BY at the last action, 3 LAST_FREE_BEATEN_BY[0]
 * there, 4 also MORE_(CHAIN_)BEATEN_BY before it, 5 LAST_FREE_BEATEN_BY by the uncounted colours. */
static int prune_picks(const dc_state *st, int32_t *moves, int n, int level) {
    int last = level >= 2 && (!st->present || (dc_pop32(st->present) == 1 && !st->extra));
    /* a guild that counts coins, owned or maybe still to come, rules out the monotone tables */
    int coin_guild = ((st->p[0].cards | st->p[1].cards) & COIN_GUILDS) != 0;
    uint32_t chains_wanted = 0; /* chain symbols a card still to come is free with */
    for (uint32_t m = st->present; m; m &= m - 1) {
        int card = st->pyramid[__builtin_ctz(m)];
        coin_guild |= card < 0 || (COIN_GUILDS >> card & 1);
        chains_wanted |= card < 0 ? ~0u : DC_CARDS_TABLE[card].chain_from;
    }
    chains_wanted &= ~st->p[st->to_move].chains;
    int monotone = !coin_guild && level >= (last ? 3 : 4);
    /* one table for every card, or NULL: MORE_(CHAIN_)BEATEN_BY by the card's chain */
    const dc_cards *table = !monotone ? (last ? LAST_BEATEN_BY : PICK_BEATEN_BY)
                            : last    ? LAST_FREE_BEATEN_BY[level >= 5 ? 127 & ~counted_colours(st) : 0]
                                      : NULL;
    int m = 0;
    for (int i = 0; i < n; i++) {
        int card = DC_MOVE_B(moves[i]);
        const dc_cards *by = table                                             ? table
                             : DC_CARDS_TABLE[card].chain_gives & chains_wanted ? MORE_CHAIN_BEATEN_BY
                                                                                : MORE_BEATEN_BY;
        if (!(by[card] & st->discard)) moves[m++] = moves[i];
    }
    return m;
}

/* A progress token chosen as its owner's last action (final_picks): Architecture, Masonry,
 * Strategy and Theology then do nothing, and Philosophy or Mathematics (points, nothing else) is
 * at least as good as any of them; of those four, one is enough. */
static int prune_tokens(const dc_state *st, int32_t *moves, int n) {
    if (st->present && (dc_pop32(st->present) > 1 || st->extra)) return n;
    const uint32_t idle = 1u << DC_T_ARCHITECTURE | 1u << DC_T_MASONRY | 1u << DC_T_STRATEGY |
                          1u << DC_T_THEOLOGY;
    const uint32_t points = 1u << DC_T_PHILOSOPHY | 1u << DC_T_MATHEMATICS;
    int keep_idle = !(st->board & points), m = 0;
    for (int i = 0; i < n; i++) {
        int token = DC_MOVE_A(moves[i]);
        if (idle >> token & 1) {
            if (!keep_idle) continue;
            keep_idle = 0;
        }
        moves[m++] = moves[i];
    }
    return m;
}

/* The moves of a Mausoleum pick or a token choice worth searching (see prune_picks and
 * prune_tokens); other phases' moves unchanged. */
static int skip_beaten(const Ctx *c, const dc_state *st, int32_t *moves, int n) {
    if (st->phase == DC_MAUSOLEUM && c->final_picks) return prune_picks(st, moves, n, c->final_picks);
    if (st->phase == DC_CHOOSE_TOKEN && c->final_picks >= 2) return prune_tokens(st, moves, n);
    return n;
}

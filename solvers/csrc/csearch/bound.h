/*
 * csearch/bound.h -- the static bound of an exact solve: whether a side surely wins whatever
 * follows (surely_wins), and the pre-test that decides where to ask (static_winner). Apart
 * because it is a proof about the rules, not a search: it reads a position and never the
 * table, and a wrong claim is found by comparing with the search without it (bounds 0).
 */
/* Can `y` be sure to win from here, whatever the other player `x` does and whatever is dealt?
 * It is enough that y wins when y discards every card it takes from now on ("y discards"),
 * against every line of x. Under that policy y builds nothing, so y's points only fall through
 * x's doing: coins (looting, wonders that take coins, spending none), the military track, and
 * the guild counts (x destroying y's brown/grey cards). So y surely wins if x can reach neither
 * military nor science supremacy and
 *     (a lower bound of y's final score) > (an upper bound of x's final score),
 * both computed from what is still available: the cards left in the structure (a face-down one
 * may be any unseen card), the discard pile through an unbuilt Mausoleum, x's unbuilt wonders.
 * x takes at most ceil(R/2) + 1 of the R cards left, plus one per wonder x may still build (a
 * replay); each card is worth at most its best use for x (built: its points, coins / 3, guild
 * value; discarded: coins / 3). If x may still win progress tokens (a science pair with tokens on
 * the board), every token on the board counts as x's. Anything the bound does not model -- The
 * Great Library, a guild that counts coins -- makes it give up (return 0): always sound.
 * Only at a card-taking decision or a reveal (no one is mid-turn).
 * That first look bounds each of x's gains on its own: its k best cards, its k strongest shields
 * and its k best tokens, as if every take served all three. Where it misses by a little and x
 * takes at most TAKES_MAX cards, a second look (uses_best) gives each take one use and keeps the
 * best combination. */
/* Can `y` be sure to win from here (called through static_winner, which has checked the phase
 * and the pre-test)? `level` 2 takes the second look (uses_best) where the first one misses;
 * 1 does not. Prices come through the thread's cache `pc`. */
static int surely_wins(const dc_state *st, int y, price_cache *pc, int level) {
    int x = 1 - y;
    const dc_player *px = &st->p[x], *py = &st->p[y];
    /* Cards x may still get: those face up in the structure (`known`) and, for each face-down
     * slot, any unseen card of its kind (a guild's back shows that the slot holds a guild). */
    dc_cards known = 0;
    int h_age = 0, h_guild = 0;
    for (uint32_t m = st->present; m; m &= m - 1) {
        int slot = __builtin_ctz(m), c = st->pyramid[slot];
        if (c >= 0) known |= DC_CARD_BIT(c);
        else if (st->guild_slots >> slot & 1) h_guild++;
        else h_age++;
    }
    dc_cards unseen_age = h_age ? st->unseen & DC_AGE_DECK_3 : 0;
    dc_cards unseen_guild = h_guild ? st->unseen & DC_AGE_DECK_4 : 0;
    dc_cards avail = known | unseen_age | unseen_guild;
    int buildable = dc_pop32((uint32_t)(px->built | py->built)) < DC_MAX_WONDERS_BUILT;
    uint32_t xw = buildable ? px->wonders : 0; /* x's wonders that may still be built */
    int x_wonders = dc_pop32(xw);
    if (xw >> 3 & 1) return 0; /* The Great Library: a token */
    /* The Mausoleum: one more card, from the discard pile (which may by then hold any card) */
    int maus = xw >> 6 & 1;
    dc_cards sure = known | (maus ? st->discard : 0); /* greens/reds x may surely pick */
    int extra_picks = h_age + maus;                    /* unseen Age III cards x may get */
    dc_cards all = avail | (maus ? st->discard : 0);
    /* x may win a progress token (a science pair with tokens on the board): give up */
    uint32_t sym = px->science, twice = 0;
    for (dc_cards g = sure & DC_GREEN; g; g &= g - 1) {
        uint32_t b = DC_CARDS_TABLE[low_card(g)].science;
        twice |= sym & b;
        sym |= b;
    }
    uint32_t unseen_sym = 0;
    int unseen_twice = 0;
    for (dc_cards g = unseen_age & DC_GREEN; g; g &= g - 1) {
        uint32_t b = DC_CARDS_TABLE[low_card(g)].science;
        unseen_twice |= (unseen_sym & b) != 0;
        unseen_sym |= b;
    }
    /* x may win progress tokens (a science pair with tokens on the board): then count every
     * token on the board as x's (points, coins, Law's symbol, Strategy's and Urbanism's
     * effects); Economy brings nothing against a side that never trades */
    uint32_t gain_tokens = 0;
    if (st->board &&
        (twice || (extra_picks >= 1 && (unseen_sym & sym)) || (extra_picks >= 2 && unseen_twice)))
        gain_tokens = st->board;
    /* --- how many cards x may still take --- */
    /* With R cards left and j Play Agains, x takes at most ceil((R + j) / 2) cards when x takes
     * the next one, floor((R + j) / 2) otherwise: after each card x takes without a Play Again,
     * y takes the next (y discards, so y never earns a Play Again). */
    int left = dc_pop32(st->present);
    int room = buildable ? DC_MAX_WONDERS_BUILT - dc_pop32((uint32_t)(px->built | py->built))
                         : 0; /* wonders that may still be built, by anyone */
    int theology = (px->tokens | gain_tokens) >> DC_T_THEOLOGY & 1;
    int replays = 0;
    for (uint32_t w = xw; w; w &= w - 1)
        replays += theology || DC_WONDERS_TABLE[__builtin_ctz(w)].extra_turn;
    if (replays > room) replays = room;
    int k = (left + replays + (st->to_move == x)) / 2; /* cards x may take */
    int y_takes = left - k;                              /* cards y takes, at least */
    if (y_takes < 0) y_takes = 0;
    /* science supremacy: each new symbol takes one of x's cards (at most extra_picks of them
     * unseen ones), and so does Law's (the pair that wins the token brings no new symbol) */
    int new_sym = dc_pop32(unseen_sym & ~sym);
    int law = (gain_tokens >> DC_T_LAW & 1) && !(sym & DC_SCIENCE_LAW_BIT);
    uint32_t sym_known = 0, sym_discard = 0; /* the symbols x may add: The Mausoleum adds one */
    for (dc_cards g = known & DC_GREEN; g; g &= g - 1) sym_known |= DC_CARDS_TABLE[low_card(g)].science;
    for (dc_cards g = maus ? st->discard & DC_GREEN & ~known : 0; g; g &= g - 1)
        sym_discard |= DC_CARDS_TABLE[low_card(g)].science;
    sym_known &= ~px->science;
    int reach = dc_pop32(sym_known) + law + (new_sym < extra_picks ? new_sym : extra_picks) +
                ((sym_discard & ~px->science & ~sym_known) != 0);
    if (reach > k + maus) reach = k + maus;
    if (dc_pop32(px->science) + reach >= 6) return 0;
    /* military: the shields of x's k strongest takes (red cards, the unseen ones among the
     * extra_picks strongest, wonders), The Mausoleum's pick one more */
    int strategy = (px->tokens | gain_tokens) >> DC_T_STRATEGY & 1;
    int top_shields[DC_N_CARDS + DC_N_WONDERS], nr = 0, nu = 0;
    int unseen_shields[DC_N_CARDS];
    for (dc_cards r = unseen_age & DC_RED; r; r &= r - 1)
        unseen_shields[nu++] = DC_CARDS_TABLE[low_card(r)].shields + strategy;
    sort_int_desc(unseen_shields, nu);
    for (int i = 0; i < nu && i < extra_picks; i++) top_shields[nr++] = unseen_shields[i];
    for (dc_cards r = known & DC_RED; r; r &= r - 1)
        top_shields[nr++] = DC_CARDS_TABLE[low_card(r)].shields + strategy;
    int best_discard_red = 0; /* The Mausoleum's one pick */
    for (dc_cards r = maus ? st->discard & DC_RED & ~known : 0; r; r &= r - 1)
        if (DC_CARDS_TABLE[low_card(r)].shields + strategy > best_discard_red)
            best_discard_red = DC_CARDS_TABLE[low_card(r)].shields + strategy;
    if (best_discard_red) top_shields[nr++] = best_discard_red;
    for (uint32_t w = xw; w; w &= w - 1)
        if (DC_WONDERS_TABLE[__builtin_ctz(w)].shields)
            top_shields[nr++] = DC_WONDERS_TABLE[__builtin_ctz(w)].shields;
    sort_int_desc(top_shields, nr);
    int shields = 0;
    for (int i = 0; i < nr && i < k + maus; i++) shields += top_shields[i];
    int pawn_x = x == 0 ? st->pawn : -st->pawn;
    if (pawn_x + shields >= 9) return 0;
    /* --- coins: y's at least (y discards), and both players' at most (The Moneylenders) --- */
    int loot = 0; /* the looting tokens on y's side that x's shields may reach */
    if ((st->military & (y == 0 ? 1 : 4)) && pawn_x + shields >= 3) loot += 2;
    if ((st->military & (y == 0 ? 2 : 8)) && pawn_x + shields >= 6) loot += 5;
    int take = 0;
    for (uint32_t w = xw; w; w &= w - 1) take += DC_WONDERS_TABLE[__builtin_ctz(w)].opponent_loses;
    int discard_y = 2 + dc_pop_cards(py->cards & DC_YELLOW);
    /* --- y builds some cards: a plan fixed now, every card of it surely affordable --- */
    /* y may do better than discard: it builds the cards of `plan` that come to it (face-up cards
     * whose price it can pay, all of them together, out of the coins x cannot take from it) and
     * discards the rest. Building c instead of discarding it is worth at least plan_gain[c] to y:
     * its points less the coins it costs and forgoes (floor((A - B) / 3) >= floor(A / 3) -
     * ceil(B / 3); twice with The Moneylenders). Which plan cards y gets is x's choice, so each is
     * also worth that much to x if x takes it (x_high below); the cards y may then own count in
     * x's "richest city" effects (y_may). Only while y's prices cannot rise (x can gain no
     * production and destroy nothing), and with no trading if x may own Economy. */
    dc_cards plan = 0, y_may = py->cards;
    double plan_gain[DC_N_CARDS], plan_sorted[DC_SLOTS]; /* by card; all of them, largest first */
    int n_plan = 0, plan_total = 0;
    int y_ml = 0;
    for (dc_cards g = py->cards & DC_PURPLE; g; g &= g - 1)
        y_ml |= DC_CARDS_TABLE[low_card(g)].points_per_max.coins_div3;
    int y_prices_fixed = 1;
    int plan_coins = 0; /* the most coins a card y may build brings it (for the richest purse) */
    for (uint32_t w = xw; w && y_prices_fixed; w &= w - 1) {
        const dc_wonder_spec *ws = &DC_WONDERS_TABLE[__builtin_ctz(w)];
        y_prices_fixed = !ws->destroy && !(ws->econ & 0x7FFF);
    }
    if (all & SW_PRODUCERS) y_prices_fixed = 0;
    int budget = py->coins - loot - take;
    if (y_prices_fixed && budget >= 0) {
        int x_economy = ((px->tokens | gain_tokens) >> DC_T_ECONOMY) & 1;
        int cand[DC_SLOTS], price_of[DC_SLOTS], nc = 0;
        double gain_of[DC_SLOTS];
        for (dc_cards a = known; a; a &= a - 1) {
            int c = low_card(a);
            const dc_card_spec *spec = &DC_CARDS_TABLE[c];
            if (!spec->points) continue;
            int price = card_price(pc, st, y, c);
            if (price > budget) continue;
            if (x_economy && price > spec->coin_cost && !(py->chains & spec->chain_from)) continue;
            /* its coins too (fixed, or per card of y's today: x can destroy none here): the net
             * coins' third, floored, or less its ceiling where y pays more than it gets (twice
             * with The Moneylenders; a gain is counted once, since the richest city may be x's) */
            int c_in = spec->coins;
            if (spec->coins_per.each)
                c_in += spec->coins_per.each * dc_category_count(st, y, &spec->coins_per);
            if (spec->coins_per_max.each)
                c_in += spec->coins_per_max.each * dc_category_count(st, y, &spec->coins_per_max);
            if (c_in > plan_coins) plan_coins = c_in;
            int net = c_in - price - discard_y;
            double g = spec->points + (net >= 0 ? (double)(net / 3) : -(double)((-net + 2) / 3) * (1 + y_ml));
            if (g <= 0) continue;
            int j = nc++;
            while (j > 0 && gain_of[j - 1] < g) {
                cand[j] = cand[j - 1], price_of[j] = price_of[j - 1], gain_of[j] = gain_of[j - 1];
                j--;
            }
            cand[j] = c, price_of[j] = price, gain_of[j] = g;
        }
        for (int i = 0; i < nc; i++) {
            if (price_of[i] > budget) continue;
            budget -= price_of[i];
            plan |= DC_CARD_BIT(cand[i]);
            plan_gain[cand[i]] = gain_of[i];
            plan_sorted[n_plan++] = gain_of[i];
            plan_total += (int)gain_of[i];
        }
        y_may |= plan;
    }
    const sw_reach reach_x = {known, unseen_age, unseen_guild, maus ? st->discard & ~known : 0,
                              h_age, h_guild, x_wonders < room ? x_wonders : room, k + maus};
    const dc_category yellow_cat = {DC_YELLOW, 0, 0, 1};
    int yellow_ub = category_ub(st, x, &yellow_cat, &reach_x);
    int urbanism_coins = ((px->tokens | gain_tokens) >> DC_T_URBANISM & 1) ? 4 : 0;
    int coins_x_base = px->coins; /* x's coins besides those its cards, wonders, tokens bring */
    /* the richest purse, at most: only a guild that counts coins reads it (x's, or one x may get) */
    int richest_ub = 0;
    if ((px->cards | all) & COIN_GUILDS) {
        int coins_x_fixed = coins_x_base; /* ... and with every wonder and token */
        for (uint32_t t = gain_tokens; t; t &= t - 1) coins_x_fixed += DC_TOKENS_TABLE[__builtin_ctz(t)].coins;
        for (uint32_t w = xw; w; w &= w - 1) coins_x_fixed += DC_WONDERS_TABLE[__builtin_ctz(w)].coins;
        int card_coins_ub = 2 + yellow_ub; /* the most coins one card may bring x */
        if (all && urbanism_coins > card_coins_ub) card_coins_ub = urbanism_coins;
        for (dc_cards a = all & SW_COINS; a; a &= a - 1) {
            const dc_card_spec *spec = &DC_CARDS_TABLE[low_card(a)];
            int coins = spec->coins + urbanism_coins + coins_per_card_ub(st, x, spec, &reach_x, y_may);
            if (coins > card_coins_ub) card_coins_ub = coins;
        }
        int coins_x_ub = coins_x_fixed + (k + maus) * card_coins_ub;
        int coins_y_ub = py->coins + left * (plan_coins > discard_y ? plan_coins : discard_y);
        if (py->tokens >> DC_T_ECONOMY & 1) coins_y_ub += coins_x_ub; /* x's trading pays y */
        richest_ub = (coins_x_ub > coins_y_ub ? coins_x_ub : coins_y_ub) / 3;
    }
    /* --- y's final score, at least (y discards from now on) --- */
    int destroy_brown = 0, destroy_grey = 0;
    for (uint32_t w = xw; w; w &= w - 1) {
        int d = DC_WONDERS_TABLE[__builtin_ctz(w)].destroy;
        destroy_brown += d == 1;
        destroy_grey += d == 2;
    }
    const int y_low_fixed = dc_card_points(py->cards & ~DC_PURPLE) + dc_wonder_points(py->built) +
                            dc_token_points(py->tokens) + plan_total;
    const sw_y_side ys = {y, pawn_x, y_takes, discard_y, destroy_brown, destroy_grey};
    int y_low = y_low_fixed + y_low_variable(st, &ys, shields, take);
    /* --- x's final score, at most --- */
    double x_high = dc_card_points(px->cards & ~DC_PURPLE) + dc_wonder_points(px->built) +
                    dc_token_points(px->tokens) + milpts(pawn_x + shields);
    for (dc_cards g = px->cards & DC_PURPLE; g; g &= g - 1) {
        int c = low_card(g);
        const dc_category *cat = &DC_CARDS_TABLE[c].points_per_max;
        int nx = category_ub(st, x, cat, &reach_x);
        int ny = dc_pop_cards(y_may & cat->colours) + (cat->wonder ? dc_pop32(py->built) : 0);
        if (cat->coins_div3) nx = ny = richest_ub;
        x_high += cat->each * (nx > ny ? nx : ny);
    }
    double discard_value = (2.0 + yellow_ub) / 3.0;
    double urbanism = urbanism_coins / 3.0;
    /* tokens: one per science pair, so at most one per card x takes; their best ones */
    double x_tok = 0.0;
    if (gain_tokens) {
        /* each pair takes a green card: face-up, unseen (one per face-down slot), or The
         * Mausoleum's pick */
        int unseen_green = dc_pop_cards(unseen_age & DC_GREEN);
        int greens = dc_pop_cards(known & DC_GREEN) + (unseen_green < h_age ? unseen_green : h_age) +
                     (maus && (st->discard & DC_GREEN & ~known));
        int count = dc_pop32(gain_tokens);
        if (count > k + maus) count = k + maus;
        if (count > greens) count = greens;
        x_tok = best_tokens(gain_tokens, px->tokens, count);
        x_high += x_tok;
    }
    /* What x pays to build: prices only fall if x's economy or chains grow (a wonder or card
     * that produces, Masonry or Architecture won, a new chain) or y's production shrinks (a
     * wonder that destroys): otherwise today's price of a face-up card is what x will pay. */
    int fixed_prices = !((gain_tokens >> DC_T_MASONRY & 1) || (gain_tokens >> DC_T_ARCHITECTURE & 1));
    for (uint32_t w = xw; w && fixed_prices; w &= w - 1) {
        const dc_wonder_spec *ws = &DC_WONDERS_TABLE[__builtin_ctz(w)];
        fixed_prices = !ws->econ && !ws->destroy;
    }
    if (all & SW_ECONOMY) fixed_prices = 0;
    for (dc_cards a = all & SW_CHAINS; a && fixed_prices; a &= a - 1)
        fixed_prices = !(DC_CARDS_TABLE[low_card(a)].chain_gives & ~px->chains);
    /* each card's best use for x; face-down slots: the best unseen cards of their kind */
    double value[DC_N_CARDS], of_age[DC_N_CARDS], of_guild[DC_N_CARDS];
    double card_built[DC_N_CARDS], card_other[DC_N_CARDS]; /* face-up cards: built; discarded */
    double card_value[DC_N_CARDS]; /* face-up cards: best use */
    int n = 0, na = 0, ng = 0;
    double best_maus = 0.0;
    /* The Mausoleum's pick from the discard pile: only its value counts, and of the cards whose
     * value counts no other card the first in SW_PLAIN_ORDER is the best */
    dc_cards pile = all & ~avail;
    if (pile) {
        for (int i = 0; i < SW_N_PLAIN; i++)
            if (pile >> SW_PLAIN_ORDER[i] & 1) {
                pile &= SW_PER;
                pile |= DC_CARD_BIT(SW_PLAIN_ORDER[i]);
                break;
            }
    }
    /* of the face-down slots' cards only the h best of each kind count: of the plain ones, the
     * first h in SW_PLAIN_ORDER */
    dc_cards hidden = unseen_age | unseen_guild;
    if (hidden & ~SW_PER) {
        dc_cards keep = hidden & SW_PER;
        int want_age = h_age, want_guild = h_guild;
        for (int i = 0; i < SW_N_PLAIN && (want_age || want_guild); i++) {
            int c = SW_PLAIN_ORDER[i];
            if ((unseen_age >> c & 1) && want_age) keep |= DC_CARD_BIT(c), want_age--;
            else if ((unseen_guild >> c & 1) && want_guild) keep |= DC_CARD_BIT(c), want_guild--;
        }
        hidden = keep;
    }
    for (dc_cards a = known | hidden | pile; a; a &= a - 1) {
        int c = low_card(a);
        const dc_card_spec *spec = &DC_CARDS_TABLE[c];
        double v = spec->points + urbanism;
        v += third(spec->coins + coins_per_card_ub(st, x, spec, &reach_x, y_may));
        if (spec->points_per_max.each) {
            const dc_category *cat = &spec->points_per_max;
            int nx = category_ub(st, x, cat, &reach_x);
            int ny = dc_pop_cards(y_may & cat->colours) + (cat->wonder ? dc_pop32(py->built) : 0);
            if (cat->coins_div3) nx = ny = richest_ub;
            v += cat->each * (nx > ny ? nx : ny);
        }
        if (maus && v > best_maus) best_maus = v; /* The Mausoleum builds it for free */
        if (fixed_prices && (known >> c & 1)) v -= third(card_price(pc, st, x, c));
        double built = v;
        if (v < discard_value) v = discard_value;
        if (plan >> c & 1) v += plan_gain[c]; /* x taking it denies y that much */
        if ((known >> c) & 1) {
            value[n++] = v;
            card_value[c] = v;
            card_built[c] = built + (v - (built > discard_value ? built : discard_value));
            card_other[c] = v - (built > discard_value ? built : discard_value) + discard_value;
        }
        else if ((unseen_age >> c) & 1) of_age[na++] = v;
        else if ((unseen_guild >> c) & 1) of_guild[ng++] = v;
    }
    sort_desc(of_age, na);
    sort_desc(of_guild, ng);
    for (int i = 0; i < na && i < h_age; i++) value[n++] = of_age[i];
    for (int i = 0; i < ng && i < h_guild; i++) value[n++] = of_guild[i];
    sort_desc(value, n);
    /* x's wonders, each worth its points and coins (The Mausoleum: the best card of the discard
     * pile too); a card x builds a wonder with brings nothing else, so of x's k cards, w go under
     * wonders and k - w are worth their best use */
    double wonder_value[DC_N_WONDERS];
    sw_uses uses;
    int nw = 0;
    for (uint32_t w = xw; w; w &= w - 1) {
        const dc_wonder_spec *ws = &DC_WONDERS_TABLE[__builtin_ctz(w)];
        int price = fixed_prices ? wonder_price(pc, st, x, __builtin_ctz(w)) : 0;
        wonder_value[nw] = ws->points + third(ws->coins - price) + (ws->mausoleum ? best_maus : 0.0);
        uses.wonder[nw] = wonder_value[nw];
        uses.wonder_shields[nw] = ws->shields;
        uses.wonder_take[nw] = ws->opponent_loses;
        uses.wonder_mausoleum[nw] = ws->mausoleum;
        nw++;
    }
    sort_desc(wonder_value, nw);
    double cards_sum[DC_N_CARDS + 1];
    cards_sum[0] = 0.0;
    for (int i = 0; i < k; i++) cards_sum[i + 1] = cards_sum[i] + (i < n ? value[i] : 0.0);
    double gain = cards_sum[k], wonders_sum = 0.0;
    for (int w = 1; w <= nw && w <= room && w <= k; w++) {
        /* the card under it may be one of y's plan: denied, as if built */
        wonders_sum += wonder_value[w - 1] + (w - 1 < n_plan ? plan_sorted[w - 1] : 0.0);
        if (cards_sum[k - w] + wonders_sum > gain) gain = cards_sum[k - w] + wonders_sum;
    }
    x_high += coins_x_base / 3.0 + gain;
    /* Scores are whole numbers: x's is at most floor(x_high) (the margin absorbs rounding). */
    double x_top = whole(x_high);
    if ((double)y_low > x_top) return 1;
    if (left <= DENIAL_CARDS && x_top - y_low <= DENIAL_GAP) {
        denial_game g;
        int ok = 1;
        for (uint32_t m = st->present; m; m &= m - 1) {
            int slot = __builtin_ctz(m), c = st->pyramid[slot];
            g.ygain[slot] = 0.0;
            if (c >= 0) {
                /* a card of y's plan: y builds it if it takes it (worth plan_gain[c] to y), so
                 * in the game x's value of it is its own, without the denial credit */
                int planned = plan >> c & 1;
                g.slot[slot] = card_value[c] - (planned ? plan_gain[c] : 0.0);
                g.ygain[slot] = planned ? plan_gain[c] : 0.0;
            } else {
                int guild = st->guild_slots >> slot & 1, age = !guild;
                double v = -1.0;
                if (age) v = na ? of_age[0] : -1.0;
                if (guild && ng && of_guild[0] > v) v = of_guild[0];
                if (v < 0.0) ok = 0;
                g.slot[slot] = v;
            }
        }
        if (ok) {
            g.wonders = nw < room ? nw : room;
            for (int i = 0; i < g.wonders; i++) g.wonder[i] = wonder_value[i];
            g.replays = replays;
            g.age = st->age;
            /* the game's value is x's gain less the plan gains y gets, which y_low already
             * counts in full (plan_total): so x's gain against it is that value + plan_total */
            double dg =
                denial_value(&g, st->present, st->accessible, st->to_move == x, 0, 0) + plan_total;
            if (dg < gain) {
                x_high -= gain - dg;
                gain = dg;
                x_top = whole(x_high);
                if ((double)y_low > x_top) return 1;
            }
        }
    }
    if (level >= 2 && k <= TAKES_MAX && x_top - y_low <= USES_GAP) {
        /* Not proved: look again with each of x's takes given one use (uses_best). Measured (a
         * 14-card solve): that proves about half the positions within 4 points, and nearly none
         * beyond USES_GAP, where most calls are. */
        uses.n = uses.n_plain = 0;
        uint8_t green_symbols = 0; /* of the green cards x may take or pick */
        for (dc_cards g = (known | (maus ? st->discard : 0)) & DC_GREEN; g; g &= g - 1)
            green_symbols |= DC_CARDS_TABLE[low_card(g)].science;
        uint8_t pairs_with = px->science | green_symbols | (unseen_twice ? unseen_sym : 0);
        int ok = 1;
        for (dc_cards a = known; a; a &= a - 1) {
            int c = low_card(a);
            const dc_card_spec *spec = &DC_CARDS_TABLE[c];
            int red = (DC_RED >> c) & 1, green = (DC_GREEN >> c) & 1;
            if (!red && !green) {
                uses.plain[uses.n_plain++] = card_built[c] > card_other[c] ? card_built[c] : card_other[c];
                continue;
            }
            if (uses.n == SPECIAL_MAX) {
                ok = 0;
                break;
            }
            int i = uses.n++;
            uses.build[i] = card_built[c], uses.other[i] = card_other[c];
            uses.shields[i] = red ? spec->shields + strategy : 0;
            uses.symbol[i] = green ? spec->science : 0;
            uses.wild[i] = 0;
        }
        int slot_shields = nu ? unseen_shields[0] : 0, slot_pair = (unseen_sym & pairs_with) != 0;
        for (int i = 0; i < na && i < h_age && ok; i++) {
            if (!slot_shields && !slot_pair) {
                uses.plain[uses.n_plain++] = of_age[i];
                continue;
            }
            if (uses.n == SPECIAL_MAX) {
                ok = 0;
                break;
            }
            int j = uses.n++;
            uses.build[j] = of_age[i], uses.other[j] = discard_value;
            uses.shields[j] = slot_shields, uses.symbol[j] = 0, uses.wild[j] = slot_pair;
        }
        for (int i = 0; i < ng && i < h_guild; i++) uses.plain[uses.n_plain++] = of_guild[i];
        if (ok && uses.n <= 6) {
            sort_desc(uses.plain, uses.n_plain);
            uses.nw = nw;
            uses.room = room;
            uses.takes = k;
            uses.maus_shields = best_discard_red;
            uses.maus_pair = 0;
            for (dc_cards g = maus ? st->discard & DC_GREEN & ~known : 0; g; g &= g - 1)
                if (DC_CARDS_TABLE[low_card(g)].science & pairs_with) uses.maus_pair = 1;
            uses.tokens_max = dc_pop32(gain_tokens);
            uses.science = px->science;
            uses.n_plan = n_plan;
            for (int i = 0; i < n_plan; i++) uses.plan_sorted[i] = plan_sorted[i];
            for (int t = 0; t <= TAKES_MAX + 1; t++) uses.tokens[t] = best_tokens(gain_tokens, px->tokens, t);
            uses.x_fixed = x_high - gain - x_tok - milpts(pawn_x + shields);
            uses.y_low_fixed = y_low_fixed;
            int d = uses_best(st, &uses, &ys);
            if (d < 0) return 1;
            if (d > 0 && y_low != x_top) return 0; /* (the first look's tie may still hold) */
        } else if (y_low != x_top) return 0;
    } else if (y_low != x_top) return 0;
    /* Equal scores: the most civilian (blue) points win. y's cannot fall; x's may rise by its k
     * best blue cards still to come (The Mausoleum: one more, from the discard pile). */
    int blue[DC_N_CARDS], nb = 0, best_discard_blue = 0;
    for (dc_cards b = (known | unseen_age) & DC_BLUE; b; b &= b - 1) {
        int v = DC_CARDS_TABLE[low_card(b)].points, j = nb++;
        while (j > 0 && blue[j - 1] < v) {
            blue[j] = blue[j - 1];
            j--;
        }
        blue[j] = v;
    }
    if (maus)
        for (dc_cards b = st->discard & DC_BLUE; b; b &= b - 1)
            if (DC_CARDS_TABLE[low_card(b)].points > best_discard_blue)
                best_discard_blue = DC_CARDS_TABLE[low_card(b)].points;
    int x_blue = dc_card_points(px->cards & DC_BLUE) + best_discard_blue;
    for (int i = 0; i < nb && i < k; i++) x_blue += blue[i];
    return dc_card_points(py->cards & DC_BLUE) > x_blue;
}

/* The side the static bound proves the winner (0 or 1), or -1. Only at a card-taking decision or
 * a reveal of Age III; both scores are counted once, for the pre-test of each side. `level`: see
 * surely_wins. `slack`: the pre-test asks y's score today plus its headroom to exceed x's by this
 * much. 0 turns away only a side the bound cannot prove; a margin turns away the close calls it
 * nearly never proves. Measured (random:500, 60M nodes): with 3 cards left, of the sides it
 * proved none had a margin under 5 and 0.2% under 10, against 1.6M failed calls under 10; with
 * 4-5 cards none under 8 and 0.2% under 12, against 1.7M failed calls. A failed call costs as
 * much as a proof (about 600 cycles with 3 cards, 1,100 with more), and with 3 cards a proof
 * saves little more than that. */
static int static_winner(const dc_state *st, price_cache *pc, int level, int slack) {
    if ((st->phase != DC_PLAY && st->phase != DC_REVEAL_CARDS) || st->age != 3) return -1;
    int total[2] = {total_points(st, 0), total_points(st, 1)}, plan_room = plan_headroom(st);
    for (int y = 0; y < 2; y++)
        if (total[y] + bound_headroom(st, y, plan_room) >= total[1 - y] + slack && surely_wins(st, y, pc, level))
            return y;
    return -1;
}

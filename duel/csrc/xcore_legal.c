/*
 * xcore_legal.c -- what can happen at a node: the legal decisions of each phase and the chance
 * outcomes with their exact integer weights (duel/expansions/legal.py in C), in the Python
 * engine's order, and random play.
 */
#include "xcore_senate.c"

static inline int dx_card_moves(dc_cards cards, int kind, int32_t *out) {
    int list[DX_N_CARDS], n = dc_card_list(cards, list);
    for (int i = 0; i < n; i++) out[i] = DX_MOVE(kind, 0, list[i]);
    return n;
}

static inline int dx_mask_moves(uint32_t mask, int kind, int32_t *out) {
    int n = 0;
    for (; mask; mask &= mask - 1) out[n++] = DX_MOVE(kind, dc_ctz32(mask), 0);
    return n;
}

/* _activations: each face-up space, with each useful set of Offering tokens one can pay with. */
static int dx_activations(const dx_state *s, int32_t *out) {
    int player = s->to_move, n = 0, funds = dx_funds(&s->p[player]);
    uint8_t held = s->p[player].offerings;
    /* sorted(set(combinations(sorted(offerings), k))) for k = 0, 1, ...: the subsets of the held
     * tokens by size, then lexicographically by value (DX_OFFERINGS is increasing). */
    static const uint8_t SUBSETS[8] = {0, 1, 2, 4, 3, 5, 6, 7};
    for (int i = 0; i < DX_SPACES; i++) {
        const dx_space *space = &s->spaces[i];
        if (space->divinity == DX_EMPTY || !space->face_up) continue;
        int price = dx_activation_price(s, player, i);
        for (int j = 0; j < 8; j++) {
            int used = SUBSETS[j];
            if ((used & held) != used) continue;
            int sum = 0, low = 99;
            for (int k = 0; k < 3; k++)
                if (used >> k & 1) {
                    sum += DX_OFFERINGS[k];
                    if (DX_OFFERINGS[k] < low) low = DX_OFFERINGS[k];
                }
            if (used && sum - low >= price) continue; /* a token the price does not need */
            int rest = price - sum;
            if ((rest > 0 ? rest : 0) <= funds) out[n++] = DX_MOVE(DX_K_ACTIVATE, space->divinity, used);
        }
    }
    return n;
}

/* trigger_moves: the mover's Conspiracies whose flags pass (`none` of `flags`, not fresh when
 * `prepared`); an unseen one may be any the observer cannot place. */
static int dx_trigger_moves(const dx_state *s, int prepared, int32_t *out) {
    const dx_city *city = &s->p[s->to_move];
    int n = 0;
    for (int k = 0; k < city->n_plots; k++) {
        int f = city->plot_flags[k];
        int ok = prepared ? (f & DX_PLOT_PREPARED) && !(f & (DX_PLOT_FRESH | DX_PLOT_USED))
                          : !(f & (DX_PLOT_PREPARED | DX_PLOT_USED));
        if (!ok) continue;
        if (city->plot_name[k] >= 0) {
            out[n++] = DX_MOVE(DX_K_TRIGGER, k + 1, city->plot_name[k]);
        } else {
            for (uint32_t c = dx_unaccounted_plots(s); c; c &= c - 1)
                out[n++] = DX_MOVE(DX_K_TRIGGER, k + 1, dc_ctz32(c));
        }
    }
    return n;
}

/* _agora_moves: prepare a Conspiracy with a card; trigger a prepared one once a turn */
static int dx_agora_moves(const dx_state *s, int32_t *out) {
    const dx_city *city = &s->p[s->to_move];
    int n = 0;
    for (uint32_t acc = s->accessible; acc; acc &= acc - 1) {
        int card = s->pyramid[dc_ctz32(acc)];
        for (int k = 0; k < city->n_plots; k++)
            if (!(city->plot_flags[k] & (DX_PLOT_PREPARED | DX_PLOT_USED)))
                out[n++] = DX_MOVE(DX_K_PREPARE, k + 1, card);
    }
    if (!s->triggered) n += dx_trigger_moves(s, 1, out + n);
    return n;
}

static int dx_place_moves(const dx_state *s, uint32_t chambers, int32_t *out) {
    int n = 0;
    if (!dx_supply(s, s->to_move)) return 0;
    for (int c = 0; c < 6; c++)
        if (chambers >> c & 1) out[n++] = DX_MOVE(DX_K_PLACE_MOVE, c + 1, 0);
    return n;
}

static int dx_move_cube_moves(const dx_state *s, int32_t *out) {
    int n = 0, player = s->to_move;
    for (int c = 1; c <= 6; c++) {
        if (!s->senate[c - 1][player]) continue;
        if (c > 1) out[n++] = DX_MOVE(DX_K_MOVE_CUBE_MOVE, c, c - 1);
        if (c < 6) out[n++] = DX_MOVE(DX_K_MOVE_CUBE_MOVE, c, c + 1);
    }
    return n;
}

static int dx_agora_decisions(const dx_state *s, int32_t *out) {
    int n = 0, player = s->to_move;
    switch (s->phase) {
    case DX_PLACE: return dx_place_moves(s, 0x3F, out);
    case DX_EVICT:
        for (int c = 0; c < 6; c++)
            if (s->senate[c][1 - player]) out[n++] = DX_MOVE(DX_K_EVICT_MOVE, c + 1, 0);
        return n;
    case DX_MOVE_CUBE:
        n = dx_move_cube_moves(s, out);
        out[n++] = DX_MOVE(DX_K_NO_MOVE, 0, 0);
        return n;
    case DX_SENATE: {
        int section = DX_STEP_B(s->step);
        uint32_t chambers = 0;
        for (int c = 0; c < 6; c++)
            if (DX_CHAMBER_SECTION[c] == section) chambers |= 1u << c;
        n = dx_place_moves(s, chambers, out);
        n += dx_move_cube_moves(s, out + n);
        out[n++] = DX_MOVE(DX_K_STOP, 0, 0);
        return n;
    }
    case DX_CONSPIRATOR:
        n = dx_place_moves(s, 0x3F, out);
        out[n++] = DX_MOVE(DX_K_CONSPIRE, 0, 0);
        return n;
    case DX_KEEP_PLOT:
        if (s->drawn_plots_unseen) {
            out[n++] = DX_MOVE(DX_K_KEEP, 0, 0) | 31 | 31 << 5;
            out[n++] = DX_MOVE(DX_K_KEEP, 0, 0) | 31 | 31 << 5 | 1 << 10;
            return n;
        }
        for (int i = 0; i < s->n_drawn_plots; i++)
            for (int j = 0; j < s->n_drawn_plots; j++)
                if (i != j)
                    for (int w = 0; w < 2; w++)
                        out[n++] = DX_MOVE(DX_K_KEEP, 0, 0) | s->drawn_plots[i] |
                                   s->drawn_plots[j] << 5 | w << 10;
        return n;
    case DX_LOCK_TOKEN: return dx_mask_moves((uint32_t)dx_lockable(s, player), DX_K_LOCK, out);
    case DX_FRAUD:
        for (uint32_t x = dx_fraud_slots(s); x; x &= x - 1)
            out[n++] = DX_MOVE(DX_K_FREE_BUILD, 0, s->pyramid[dc_ctz32(x)]);
        return n;
    case DX_TREASON:
        n = dx_card_moves(dx_treason_cards(s), DX_K_FREE_BUILD, out);
        if (!n) out[n++] = DX_MOVE(DX_K_NO_DISCARD, 0, 0);
        return n;
    case DX_ESPIONAGE: return dx_mask_moves(dx_box_tokens(s), DX_K_TOKEN, out);
    case DX_DISCARD_ANY: {
        int slots = dx_slots(s);
        for (int slot = 0; slot < slots; slot++)
            if ((s->accessible >> slot & 1) && s->pyramid[slot] >= 0)
                out[n++] = DX_MOVE(DX_K_DISCARD_FREE, 0, s->pyramid[slot]);
        if (DX_STEP_B(s->step) == 2) out[n++] = DX_MOVE(DX_K_NO_DISCARD, 0, 0);
        return n;
    }
    case DX_COERCION: return dx_swaps(s, player, out, DX_K_SWAP);
    case DX_INSIDER:
        for (int c = 0; c < 6; c++) {
            if (!s->n_decrees[c]) continue;
            for (int d = 0; d < 6; d++)
                if (d != c) /* the top Decree's name when face up, else 31 */
                    out[n++] = DX_MOVE(DX_K_MOVE_DECREE, 0, 0) | (c + 1) | (d + 1) << 3 |
                               (s->decree[c][0] >= 0 ? s->decree[c][0] : 31) << 6;
        }
        return n;
    case DX_SABOTAGE: return dx_mask_moves(s->p[1 - player].built, DX_K_SABOTAGE_MOVE, out);
    case DX_CURIA:
        n = dx_trigger_moves(s, 0, out);
        out[n++] = DX_MOVE(DX_K_NO_TRIGGER, 0, 0);
        return n;
    default: return 0;
    }
}

/* _play_moves */
static int dx_play_moves(const dx_state *s, int32_t *out) {
    int player = s->to_move, n = 0, nw = 0, funds = dx_funds(&s->p[player]), trade;
    int wonders[DX_N_WONDERS];
    if (dx_wonders_built(s) < DC_MAX_WONDERS_BUILT)
        for (uint32_t ws = s->p[player].wonders; ws; ws &= ws - 1) {
            int w = dc_ctz32(ws);
            if (dx_wonder_cost(s, player, w) <= funds) wonders[nw++] = w;
        }
    for (uint32_t acc = s->accessible; acc; acc &= acc - 1) {
        int card = s->pyramid[dc_ctz32(acc)];
        if (dx_card_price(s, player, card, &trade) <= funds) out[n++] = DX_MOVE(DX_K_BUILD, 0, card);
        out[n++] = DX_MOVE(DX_K_DISCARD, 0, card);
        for (int i = 0; i < nw; i++) out[n++] = DX_MOVE(DX_K_WONDER, wonders[i], card);
    }
    if ((s->expansions & DX_PANTHEON) && s->age >= 2) n += dx_activations(s, out + n);
    if (s->expansions & DX_AGORA) n += dx_agora_moves(s, out + n);
    return n;
}

/* _seat_moves */
static int dx_seat_moves(const dx_state *s, int32_t *out) {
    int n = 0, m = s->drawing;
    int8_t names[2];
    int count = s->drawn_unseen ? 1 : 0;
    if (!s->drawn_unseen) {
        /* sorted(set(drawn)): drawn is sorted by name already */
        count = s->n_drawn;
        for (int k = 0; k < count; k++) names[k] = s->drawn[k];
    }
    for (int k = 0; k < count; k++)
        for (int i = 0; i < DX_SPACES; i++)
            if (s->spaces[i].divinity == DX_EMPTY) {
                int d = s->drawn_unseen ? DX_NO_DIVINITY : names[k];
                out[n++] = DX_MOVE(DX_K_SEAT_MOVE, d, m << 4 | (i + 1));
            }
    return n;
}

/* Permutations of the chosen Divinities sorted by their names (theater_order's moves). */
static int dx_order_moves(const dx_state *s, int32_t *out) {
    int8_t c[DX_DECK_MAX];
    int n = s->n_chosen;
    for (int k = 0; k < n; k++) c[k] = s->chosen[k];
    /* sort by name, then walk the permutations in lexicographic order */
    for (int i = 1; i < n; i++)
        for (int k = i; k > 0 && DX_DIVINITY_RANK[c[k - 1]] > DX_DIVINITY_RANK[c[k]]; k--) {
            int8_t t = c[k];
            c[k] = c[k - 1];
            c[k - 1] = t;
        }
    int count = 0;
    for (;;) {
        int code = 0;
        for (int k = 0; k < DX_DECK_MAX; k++) code |= (k < n ? c[k] : 31) << (5 * k);
        out[count++] = DX_MOVE(DX_K_ORDER, 0, 0) | code;
        int i = n - 2;
        while (i >= 0 && DX_DIVINITY_RANK[c[i]] >= DX_DIVINITY_RANK[c[i + 1]]) i--;
        if (i < 0) break;
        int j = n - 1;
        while (DX_DIVINITY_RANK[c[j]] <= DX_DIVINITY_RANK[c[i]]) j--;
        int8_t t = c[i];
        c[i] = c[j];
        c[j] = t;
        for (int a = i + 1, b = n - 1; a < b; a++, b--) {
            t = c[a];
            c[a] = c[b];
            c[b] = t;
        }
    }
    return count;
}

DX_API int dx_legal_moves(const dx_state *s, int32_t *out) {
    int player = s->to_move, n = 0;
    const dx_city *other = &s->p[1 - player];
    switch (s->phase) {
    case DX_PLAY: return dx_play_moves(s, out);
    case DX_DRAFT: return dx_mask_moves(s->offer, DX_K_PICK, out);
    case DX_CHOOSE_TOKEN: return dx_mask_moves(s->board, DX_K_TOKEN, out);
    case DX_LIBRARY_CHOOSE: return dx_mask_moves(s->library, DX_K_TOKEN, out);
    case DX_ENKI_CHOOSE: return dx_mask_moves(s->enki_tokens, DX_K_TOKEN, out);
    case DX_DESTROY: {
        static const dc_cards COLOURS[5] = {0, DX_BROWN, DX_GREY, DX_BLUE, DX_YELLOW};
        dc_cards colour = COLOURS[s->destroying];
        return dx_card_moves(other->cards & colour, DX_K_DESTROY_CARD, out);
    }
    case DX_MAUSOLEUM: return dx_card_moves(s->discard, DX_K_MAUSOLEUM_CARD, out);
    case DX_CHOOSE_STARTER:
        out[0] = DX_MOVE(DX_K_START, 0, 0);
        out[1] = DX_MOVE(DX_K_START, 1, 0);
        return 2;
    case DX_SEAT: return dx_seat_moves(s, out);
    case DX_NISABA: return dx_card_moves(other->cards & DX_SCIENCE_CARDS, DX_K_SNAKE, out);
    case DX_BAAL: return dx_card_moves(other->cards & (DX_BROWN | DX_GREY), DX_K_TAKE, out);
    case DX_ZEUS: return dx_mask_moves(s->present, DX_K_ZEUS_MOVE, out);
    case DX_ANUBIS:
        n = dx_mask_moves(s->p[0].built, DX_K_UNBUILD, out);
        return n + dx_mask_moves(s->p[1].built, DX_K_UNBUILD, out + n);
    case DX_ISIS: {
        int list[DX_N_CARDS], m = dc_card_list(s->discard, list);
        for (uint32_t ws = s->p[player].wonders; ws; ws &= ws - 1)
            for (int i = 0; i < m; i++) out[n++] = DX_MOVE(DX_K_ISIS_MOVE, dc_ctz32(ws), list[i]);
        return n;
    }
    case DX_RA: return dx_mask_moves(other->wonders, DX_K_STEAL, out);
    case DX_MINERVA:
        for (int x = -9; x <= 9; x++)
            if (x != s->pawn) out[n++] = DX_MOVE(DX_K_MINERVA_MOVE, x + 9, 0);
        return n;
    case DX_NEPTUNE_REMOVE: return dx_mask_moves(s->military, DX_K_REMOVE, out);
    case DX_NEPTUNE_APPLY: return dx_mask_moves(s->military, DX_K_APPLY, out);
    case DX_GATE_CHOOSE:
    case DX_THEATER_CHOOSE:
        for (int k = 0; k < s->n_chosen; k++) out[n++] = DX_MOVE(DX_K_CHOOSE, s->chosen[k], 0);
        return n;
    case DX_THEATER_DECK:
        for (int m = 0; m < DX_N_MYTHOLOGIES; m++)
            if (s->deck_size[m]) out[n++] = DX_MOVE(DX_K_THEATER, m, 0);
        return n;
    case DX_THEATER_ORDER: return dx_order_moves(s, out);
    default: return dx_agora_decisions(s, out);
    }
}

DX_API int dx_is_chance(const dx_state *s) {
    switch (s->phase) {
    case DX_SETUP_TOKENS: case DX_SETUP_WONDERS: case DX_REVEAL: case DX_DEAL_BACKS:
    case DX_LIBRARY_DRAW: case DX_PLACE_MYTHOLOGY: case DX_PLACE_OFFERINGS:
    case DX_DRAW_DIVINITIES: case DX_FLIP: case DX_ENKI_TOKENS: case DX_TOP: case DX_DECK:
    case DX_ZEUS_REVEAL: case DX_DECREE: case DX_BACK: case DX_DRAW_PLOTS: case DX_TREASON_DEAL:
        return 1;
    default: return 0;
    }
}

/* reveal_pool: the cards `slot` can turn out to be. */
static inline dc_cards dx_reveal_pool(const dx_state *s, int slot) {
    if (s->expansions & DX_AGORA) { /* agora_reveal_pool: by the slot's back */
        int back = s->backs[slot];
        if (back == DX_BACK_GUILD) return s->unseen & DC_AGE_DECK_4;
        if (back == DX_BACK_TEMPLE) return s->unseen & DX_TEMPLES;
        dc_cards deck = s->age == 1 ? DC_AGE_DECK_1 : s->age == 2 ? DC_AGE_DECK_2 : DC_AGE_DECK_3;
        dc_cards removed = 0;
        if (!s->removed_now_none)
            for (int k = 0; k < s->n_removed_now; k++) removed |= DC_CARD_BIT(s->removed_now[k]);
        return s->unseen & deck & ~removed;
    }
    if (s->age < 3) return s->unseen;
    dc_cards backs = s->expansions & DX_PANTHEON ? DX_TEMPLES : DC_AGE_DECK_4;
    return s->unseen & (s->back_slots >> slot & 1 ? backs : DC_AGE_DECK_3);
}

/* Every k-subset of the set bits of `mask` in itertools.combinations order, as masks. */
static int dx_combinations(uint32_t mask, int k, uint32_t *out) {
    int items[32], m = 0, n = 0;
    for (; mask; mask &= mask - 1) items[m++] = dc_ctz32(mask);
    if (k > m) return 0;
    int idx[32];
    for (int i = 0; i < k; i++) idx[i] = i;
    for (;;) {
        uint32_t sub = 0;
        for (int i = 0; i < k; i++) sub |= 1u << items[idx[i]];
        out[n++] = sub;
        int i = k - 1;
        while (i >= 0 && idx[i] == m - k + i) i--;
        if (i < 0) break;
        idx[i]++;
        for (int j = i + 1; j < k; j++) idx[j] = idx[j - 1] + 1;
    }
    return n;
}

/* Local mask (bit i: the i-th Divinity of Mythology m) of a mask of Divinity ids. */
static inline int dx_local(int m, uint32_t divinities) {
    return (int)(divinities >> DX_MYTHOLOGY_FIRST[m]) & ((1 << DX_MYTHOLOGY_SIZE[m]) - 1);
}

/* _back_outcomes: the next slot's back, each kind weighted by its backs left (_backs_left) */
static int dx_back_outcomes(const dx_state *s, int32_t *moves, int64_t *weights) {
    int slots = dx_slots(s), slot = 0, counted[5] = {0, 0, 0, 0, 0}, n = 0;
    while (s->backs[slot] != DX_BACK_NONE) slot++;
    for (int x = 0; x < slots; x++) counted[(int)s->backs[x]]++;
    int senators = DX_SENATORS_PER_AGE[s->age], special = s->age == 3 ? 3 : 0;
    int third = s->expansions & DX_PANTHEON ? DX_BACK_TEMPLE : DX_BACK_GUILD;
    int left[3] = {senators - counted[DX_BACK_SENATOR], special - counted[third],
                   slots - senators - special - counted[DX_BACK_AGE]};
    int kinds[3] = {DX_BACK_SENATOR, third, DX_BACK_AGE};
    for (int i = 0; i < 3; i++)
        if (left[i] > 0) {
            moves[n] = DX_MOVE(DX_K_BACK_MOVE, slot, kinds[i]);
            weights[n++] = left[i];
        }
    return n;
}

DX_API int dx_chance_outcomes(const dx_state *s, int32_t *moves, int64_t *weights) {
    int n = 0;
    uint32_t subsets[DX_MAX_OUTCOMES];
    switch (s->phase) {
    case DX_SETUP_TOKENS:
        n = dx_mask_moves(dx_token_pool(s) & ~s->board, DX_K_REVEAL_TOKEN, moves);
        break;
    case DX_SETUP_WONDERS: n = dx_mask_moves(s->wonders_unseen, DX_K_REVEAL_WONDER, moves); break;
    case DX_REVEAL:
    case DX_ZEUS_REVEAL: {
        int slot = s->phase == DX_REVEAL ? dc_ctz32(s->reveal) : s->chosen[0];
        if ((s->expansions & DX_AGORA) && s->backs[slot] == DX_BACK_SENATOR) {
            /* senator_reveal_outcomes: a kind's lowest unseen card, weighted by its unseen */
            int first[4] = {-1, -1, -1, -1}, count[4] = {0, 0, 0, 0};
            for (int i = 0; i < DX_N_SENATORS; i++) {
                int card = DX_FIRST_SENATOR + i, kind = DX_SENATOR_KIND[i];
                if (dc_has_card(s->senators_seen, card)) continue;
                if (first[kind] < 0) first[kind] = card;
                count[kind]++;
            }
            for (int kind = 0; kind < 4; kind++)
                if (count[kind]) {
                    moves[n] = DX_MOVE(DX_K_REVEAL_CARD, slot, first[kind]);
                    weights[n++] = count[kind];
                }
            return n;
        }
        int list[DX_N_CARDS], m = dc_card_list(dx_reveal_pool(s, slot), list);
        for (n = 0; n < m; n++) moves[n] = DX_MOVE(DX_K_REVEAL_CARD, slot, list[n]);
        break;
    }
    case DX_DECREE: {
        int chamber = DX_STEP_A(s->step);
        uint32_t seen = 0;
        for (int c = 0; c < 6; c++)
            for (int k = 0; k < s->n_decrees[c]; k++)
                if (s->decree[c][k] >= 0) seen |= 1u << s->decree[c][k];
        for (int d = 0; d < DX_N_DECREES; d++)
            if (!(seen >> d & 1)) moves[n++] = DX_MOVE(DX_K_DECREE_MOVE, chamber, d);
        break;
    }
    case DX_BACK: return dx_back_outcomes(s, moves, weights);
    case DX_DRAW_PLOTS: {
        if (s->observer >= 0 && s->observer != s->to_move) {
            moves[0] = DX_MOVE(DX_K_DRAW_PLOTS_MOVE, 0, 0);
            n = 1;
            break;
        }
        int count = s->plot_size < 2 ? s->plot_size : 2;
        int middle = s->plot_size - s->n_plot_top - s->n_plot_bottom, known = 0, nk = 0;
        for (int k = 0; k < count; k++) {
            int name = DX_UNKNOWN;
            if (k < s->n_plot_top)
                name = s->plot_top[k];
            else if (k >= s->n_plot_top + middle)
                name = s->plot_bottom[k - s->n_plot_top - middle];
            if (name >= 0) {
                known |= 1 << name;
                nk++;
            }
        }
        int c = dx_combinations(dx_unaccounted_plots(s), count - nk, subsets);
        for (n = 0; n < c; n++)
            moves[n] = DX_MOVE(DX_K_DRAW_PLOTS_MOVE, 0, 0) | known | (int32_t)subsets[n];
        break;
    }
    case DX_TREASON_DEAL: {
        if (s->observer >= 0 && s->observer != s->to_move) {
            moves[0] = DX_MOVE(DX_K_TREASON_DEAL_MOVE, 0, 0) | 1 << 21 | 0x1FFFFF;
            n = 1;
            break;
        }
        dc_cards deck = s->age == 1 ? DC_AGE_DECK_1 : s->age == 2 ? DC_AGE_DECK_2 : DC_AGE_DECK_3;
        int pool[DX_N_CARDS], m = dc_card_list(s->unseen & deck, pool), k = m < 3 ? m : 3;
        int idx[3] = {0, 1, 2};
        for (;;) {
            int code = 127 | 127 << 7 | 127 << 14;
            for (int i = 0; i < k; i++) code = (code & ~(127 << (7 * i))) | pool[idx[i]] << (7 * i);
            moves[n++] = DX_MOVE(DX_K_TREASON_DEAL_MOVE, 0, 0) | code;
            int i = k - 1;
            while (i >= 0 && idx[i] == m - k + i) i--;
            if (i < 0) break;
            idx[i]++;
            for (int j = i + 1; j < k; j++) idx[j] = idx[j - 1] + 1;
        }
        break;
    }
    case DX_DEAL_BACKS:
        for (n = 0; n < DC_N_GUILD_DEALS; n++) moves[n] = DX_MOVE(DX_K_DEAL_BACKS_MOVE, 0, 0) | n;
        break;
    case DX_LIBRARY_DRAW:
    case DX_ENKI_TOKENS: {
        uint32_t box = dx_box_tokens(s);
        int k = s->phase == DX_LIBRARY_DRAW ? 3 : 2, size = dc_pop32(box);
        int m = dx_combinations(box, size < k ? size : k, subsets);
        int kind = s->phase == DX_LIBRARY_DRAW ? DX_K_LIBRARY_DRAW_MOVE : DX_K_ENKI_TOKENS_MOVE;
        for (n = 0; n < m; n++) moves[n] = DX_MOVE(kind, 0, 0) | (int32_t)subsets[n];
        break;
    }
    case DX_PLACE_MYTHOLOGY: {
        const uint8_t *slots = s->expansions & DX_AGORA ? DX_MYTHOLOGY_SLOTS_AGORA
                                                         : DX_MYTHOLOGY_SLOTS_BASE;
        int slot = slots[0], placed[DX_N_MYTHOLOGIES] = {0};
        for (int i = 0; i < 5; i++)
            if (s->mythology_on[slots[i]] < 0) {
                slot = slots[i];
                break;
            }
        for (int x = 0; x < DX_SLOTS; x++)
            if (s->mythology_on[x] >= 0) placed[s->mythology_on[x]]++;
        for (int m = 0; m < DX_N_MYTHOLOGIES; m++)
            if (placed[m] < 2) {
                moves[n] = DX_MOVE(DX_K_PLACE_MYTHOLOGY_MOVE, slot, m);
                weights[n++] = 2 - placed[m];
            }
        return n;
    }
    case DX_PLACE_OFFERINGS:
        for (n = 0; n < 6; n++) moves[n] = DX_MOVE(DX_K_PLACE_OFFERINGS_MOVE, n, 0);
        break;
    case DX_DRAW_DIVINITIES: {
        int m = s->drawing;
        if (s->observer >= 0 && s->observer != s->to_move) {
            moves[0] = DX_MOVE(DX_K_DRAW_DIVINITIES_MOVE, m, DX_DRAWN_UNSEEN);
            n = 1;
            break;
        }
        int count = s->deck_size[m] < 2 ? s->deck_size[m] : 2, known = 0, nk = 0;
        for (int k = 0; k < count && k < s->n_tops[m]; k++)
            if (s->top_divinity[m][k] >= 0) {
                known |= 1 << (s->top_divinity[m][k] - DX_MYTHOLOGY_FIRST[m]);
                nk++;
            }
        int c = dx_combinations(dx_local(m, dx_unaccounted(s, m)), count - nk, subsets);
        for (n = 0; n < c; n++)
            moves[n] = DX_MOVE(DX_K_DRAW_DIVINITIES_MOVE, m, known | (int)subsets[n]);
        break;
    }
    case DX_FLIP: {
        int i = 0;
        while (s->spaces[i].divinity == DX_EMPTY || s->spaces[i].face_up) i++;
        if (s->spaces[i].divinity >= 0) {
            moves[0] = DX_MOVE(DX_K_FLIP_MOVE, i + 1, s->spaces[i].divinity);
            n = 1;
            break;
        }
        for (uint32_t d = dx_unaccounted(s, s->spaces[i].mythology); d; d &= d - 1)
            moves[n++] = DX_MOVE(DX_K_FLIP_MOVE, i + 1, dc_ctz32(d));
        break;
    }
    case DX_TOP: {
        int m = s->revealing[0];
        if (s->n_tops[m] && s->top_divinity[m][0] >= 0) {
            moves[0] = DX_MOVE(DX_K_TOP_MOVE, m, s->top_divinity[m][0]);
            n = 1;
            break;
        }
        for (uint32_t d = dx_unaccounted(s, m); d; d &= d - 1)
            moves[n++] = DX_MOVE(DX_K_TOP_MOVE, m, dc_ctz32(d));
        break;
    }
    case DX_DECK: {
        int m = s->revealing[0], known = 0, nk = 0;
        for (int k = 0; k < s->n_tops[m]; k++)
            if (s->top_divinity[m][k] >= 0) {
                known |= 1 << (s->top_divinity[m][k] - DX_MYTHOLOGY_FIRST[m]);
                nk++;
            }
        int c = dx_combinations(dx_local(m, dx_unaccounted(s, m)), s->deck_size[m] - nk, subsets);
        for (n = 0; n < c; n++) moves[n] = DX_MOVE(DX_K_DECK_MOVE, m, known | (int)subsets[n]);
        break;
    }
    default: return 0;
    }
    for (int i = 0; i < n; i++) weights[i] = 1;
    return n;
}

DX_API int32_t dx_sample_chance(const dx_state *s, dc_rng *rng) {
    if (s->phase == DX_REVEAL) { /* the common case, without listing the outcomes */
        int slot = dc_ctz32(s->reveal);
        if ((s->expansions & DX_AGORA) && s->backs[slot] == DX_BACK_SENATOR) {
            /* a Senator of each kind, weighted by its unseen cards: an unseen Senator drawn
             * uniformly has that law; its kind's lowest unseen card is the outcome */
            dc_cards unseen = DX_SENATOR & ~s->senators_seen;
            if (!unseen) return -1;
            int k = (int)dc_rng_below(rng, (uint64_t)dc_pop_cards(unseen));
            int kind = DX_SENATOR_KIND[dc_select_cards(unseen, k) - DX_FIRST_SENATOR];
            for (int i = 0; i < DX_N_SENATORS; i++)
                if (DX_SENATOR_KIND[i] == kind && dc_has_card(unseen, DX_FIRST_SENATOR + i))
                    return DX_MOVE(DX_K_REVEAL_CARD, slot, DX_FIRST_SENATOR + i);
        }
        dc_cards pool = dx_reveal_pool(s, slot);
        if (!pool) return -1;
        int k = (int)dc_rng_below(rng, (uint64_t)dc_pop_cards(pool));
        return DX_MOVE(DX_K_REVEAL_CARD, slot, dc_select_cards(pool, k));
    }
    if (s->phase == DX_BACK) { /* Agora's backs, slot by slot: a few weighted kinds */
        int32_t moves[3];
        int64_t weights[3], total = 0;
        int n = dx_back_outcomes(s, moves, weights);
        for (int i = 0; i < n; i++) total += weights[i];
        if (!total) return -1;
        int64_t x = (int64_t)dc_rng_below(rng, (uint64_t)total);
        for (int i = 0; i < n; i++)
            if ((x -= weights[i]) < 0) return moves[i];
        return moves[n - 1];
    }
    if (s->phase == DX_TREASON_DEAL && !(s->observer >= 0 && s->observer != s->to_move)) {
        /* three distinct cards of the pool drawn uniformly: a uniform combination */
        dc_cards deck = s->age == 1 ? DC_AGE_DECK_1 : s->age == 2 ? DC_AGE_DECK_2 : DC_AGE_DECK_3;
        dc_cards pool = s->unseen & deck, picked = 0;
        int m = dc_pop_cards(pool), k = m < 3 ? m : 3, cards[3], code = 127 | 127 << 7 | 127 << 14;
        for (int i = 0; i < k; i++) {
            int c = dc_select_cards(pool & ~picked, (int)dc_rng_below(rng, (uint64_t)(m - i)));
            picked |= DC_CARD_BIT(c);
        }
        k = dc_card_list(picked, cards);
        for (int i = 0; i < k; i++) code = (code & ~(127 << (7 * i))) | cards[i] << (7 * i);
        return DX_MOVE(DX_K_TREASON_DEAL_MOVE, 0, 0) | code;
    }
    int32_t moves[DX_MAX_OUTCOMES];
    int64_t weights[DX_MAX_OUTCOMES], total = 0;
    int n = dx_chance_outcomes(s, moves, weights);
    for (int i = 0; i < n; i++) total += weights[i];
    if (n == 0 || total <= 0) return -1;
    int64_t x = (int64_t)dc_rng_below(rng, (uint64_t)total);
    for (int i = 0; i < n; i++) {
        x -= weights[i];
        if (x < 0) return moves[i];
    }
    return moves[n - 1];
}

/* A uniformly random legal move of the play phase without pricing every card: draw from
 * "accessible card x {build, discard, each unbuilt Wonder}" plus the other moves (listed: they
 * are few) and reject an unaffordable build or Wonder, which is uniform on the legal moves. */
static int32_t dx_random_play_move(const dx_state *s, dc_rng *rng) {
    int player = s->to_move, slots[DX_SLOTS], ns = 0, wonders[DX_N_WONDERS], nw = 0, trade;
    int funds = dx_funds(&s->p[player]);
    for (uint32_t acc = s->accessible; acc; acc &= acc - 1) slots[ns++] = dc_ctz32(acc);
    if (dx_wonders_built(s) < DC_MAX_WONDERS_BUILT)
        for (uint32_t ws = s->p[player].wonders; ws; ws &= ws - 1) wonders[nw++] = dc_ctz32(ws);
    int32_t extra[DX_MAX_MOVES];
    int ne = 0;
    if ((s->expansions & DX_PANTHEON) && s->age >= 2) ne += dx_activations(s, extra + ne);
    if (s->expansions & DX_AGORA) ne += dx_agora_moves(s, extra + ne);
    uint32_t actions = 2 + (uint32_t)nw, cards = (uint32_t)ns * actions;
    int8_t card_ok[DX_SLOTS], wonder_ok[DX_N_WONDERS]; /* -1: not priced yet */
    memset(card_ok, -1, sizeof card_ok);
    memset(wonder_ok, -1, sizeof wonder_ok);
    for (;;) {
        uint32_t x = (uint32_t)dc_rng_below(rng, cards + (uint32_t)ne);
        if (x >= cards) return extra[x - cards];
        int i = (int)(x / actions), card = s->pyramid[slots[i]], a = (int)(x % actions);
        if (a == 1) return DX_MOVE(DX_K_DISCARD, 0, card);
        if (a == 0) {
            if (card_ok[i] < 0) card_ok[i] = dx_card_price(s, player, card, &trade) <= funds;
            if (card_ok[i]) return DX_MOVE(DX_K_BUILD, 0, card);
        } else {
            int w = a - 2;
            if (wonder_ok[w] < 0) wonder_ok[w] = dx_wonder_cost(s, player, wonders[w]) <= funds;
            if (wonder_ok[w]) return DX_MOVE(DX_K_WONDER, wonders[w], card);
        }
    }
}

DX_API int32_t dx_random_move(const dx_state *s, dc_rng *rng) {
    if (s->phase == DX_GAME_OVER) return -1;
    if (dx_is_chance(s)) return dx_sample_chance(s, rng);
    if (s->phase == DX_PLAY && s->accessible) return dx_random_play_move(s, rng);
    int32_t moves[DX_MAX_MOVES];
    int n = dx_legal_moves(s, moves);
    if (n == 0) return -1;
    return moves[dc_rng_below(rng, (uint64_t)n)];
}

DX_API int dx_random_playout(dx_state *s, dc_rng *rng) {
    int steps = 0;
    while (s->phase != DX_GAME_OVER) {
        int32_t move = dx_random_move(s, rng);
        if (move < 0) break;
        dx_apply(s, move);
        steps++;
    }
    return steps;
}

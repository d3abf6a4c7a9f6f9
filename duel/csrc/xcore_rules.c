/*
 * xcore_rules.c -- how each move changes a position: duel/expansions/rules.py in C. Every helper
 * names the rules.py function it mirrors, and keeps its order of effects (later effects read
 * earlier ones: a loot before the science check, the tokens of uncovered cards before the turn
 * passes).
 */
#include "xcore_state.c"

static void dx_finish_turn(dx_state *s);
/* Agora's hooks (xcore_senate.c) */
static void dx_push1(dx_state *s, uint32_t step, int front);
static void dx_resolve(dx_state *s);
static void dx_military_token(dx_state *s, int player, int large);
static void dx_tithes(dx_state *s, int colour);
static void dx_on_senator(dx_state *s, int player, int card);
static void dx_setup_decrees(dx_state *s);
static void dx_apply_agora(dx_state *s, int32_t move);

/* _gain_coins, _lose_coins (a loss takes treasury coins only) */
static inline void dx_gain_coins(dx_state *s, int p, int amount) { s->p[p].coins += amount; }

static inline void dx_lose_coins(dx_state *s, int p, int amount) {
    int c = s->p[p].coins - amount;
    s->p[p].coins = c > 0 ? c : 0;
}

/* _pay: the treasury first, Astarte's coins for the rest; Economy gives the opponent `trade`. */
static void dx_pay(dx_state *s, int p, int total, int trade) {
    dx_city *city = &s->p[p];
    int from_treasury = city->coins < total ? city->coins : total;
    city->coins -= from_treasury;
    city->astarte -= total - from_treasury;
    if (trade && dx_has(s->p[1 - p].tokens, DC_T_ECONOMY)) dx_gain_coins(s, 1 - p, trade);
}

/* _end_game */
static void dx_end_game(dx_state *s, int winner, int victory) {
    s->phase = DX_GAME_OVER;
    s->winner = (int8_t)winner;
    s->victory = (uint8_t)victory;
    s->extra = 0;
}

/* _move_pawn: true if the game ends. */
static int dx_move_pawn(dx_state *s, int player, int shields) {
    int sign = player == 0 ? 1 : -1;
    int old = s->pawn * sign;
    int new_ = old + shields < 9 ? old + shields : 9;
    if (s->minerva != DX_NO_MINERVA && old < s->minerva * sign && s->minerva * sign <= new_) {
        new_ = s->minerva * sign - 1;
        s->minerva = DX_NO_MINERVA;
    }
    int side_shift = player == 0 ? 2 : 0; /* A loots the tokens on B's side */
    static const int distance[2] = {3, 6}, loot[2] = {2, 5}, bit[2] = {1, 2};
    for (int i = 0; i < 2; i++) {
        int token = bit[i] << side_shift;
        if (old < distance[i] && distance[i] <= new_ && (s->military & token)) {
            s->military &= (uint8_t)~token;
            if (s->expansions & DX_AGORA) /* Agora's tokens: a cube to place, or to remove */
                dx_military_token(s, player, distance[i] == 6);
            else
                dx_lose_coins(s, 1 - player, loot[i]);
        }
    }
    if (dx_has(s->p[player].tokens, DX_T_POLIORCETICS) && new_ > old)
        dx_lose_coins(s, 1 - player, new_ - old);
    s->pawn = (int8_t)(new_ * sign);
    if (new_ >= 9) {
        dx_end_game(s, player, DX_MILITARY);
        return 1;
    }
    return 0;
}

/* _gain_science: true if that wins; a pair opens choose_token while tokens lie on the board. */
static int dx_gain_science(dx_state *s, int player, int symbol_bit) {
    int symbols = dc_add_symbol(&s->p[player].science, symbol_bit);
    if (!symbols) {
        if (s->board) s->phase = DX_CHOOSE_TOKEN;
        return 0;
    }
    if (symbols >= 6) {
        dx_end_game(s, player, DX_SCIENCE);
        return 1;
    }
    return 0;
}

/* The economy and chains of a city that lost a card (destroyed, taken): rebuilt from its cards
 * and Wonders, as the Python engine reads them from the city each time. */
static void dx_recount_city(dx_city *city) {
    int list[DX_N_CARDS], n = dc_card_list(city->cards, list);
    city->econ = 0;
    city->chains = 0;
    for (int i = 0; i < n; i++) {
        city->econ += DX_CARDS_TABLE[list[i]].econ;
        city->chains |= DX_CARDS_TABLE[list[i]].chain_gives;
    }
    for (uint32_t w = city->built; w; w &= w - 1) city->econ += DX_WONDERS_TABLE[dc_ctz32(w)].econ;
}

static inline void dx_add_card(dx_city *city, int card) {
    city->cards |= DC_CARD_BIT(card);
    city->econ += DX_CARDS_TABLE[card].econ;
    city->chains |= DX_CARDS_TABLE[card].chain_gives;
}

/* _construct_card: true if the game ended. */
static int dx_construct_card(dx_state *s, int player, int card) {
    dx_city *city = &s->p[player];
    const dc_card_spec *spec = &DX_CARDS_TABLE[card];
    dx_add_card(city, card);
    if (s->expansions & DX_AGORA) {
        dx_tithes(s, DX_CARD_COLOUR[card]);
        if (card >= DX_FIRST_SENATOR) {
            dx_on_senator(s, player, card);
            return 0;
        }
    }
    if (spec->coins) dx_gain_coins(s, player, spec->coins);
    if (spec->coins_per.each)
        dx_gain_coins(s, player,
                      spec->coins_per.each * dx_category_count(s, player, &spec->coins_per));
    if (spec->coins_per_max.each) {
        int a = dx_category_count(s, 0, &spec->coins_per_max);
        int b = dx_category_count(s, 1, &spec->coins_per_max);
        dx_gain_coins(s, player, spec->coins_per_max.each * (a > b ? a : b));
    }
    if (spec->shields) {
        int bonus = dx_has(city->tokens, DC_T_STRATEGY);
        if (dx_move_pawn(s, player, spec->shields + bonus)) return 1;
    }
    if (spec->science) return dx_gain_science(s, player, spec->science);
    return 0;
}

/* _gain_token */
static int dx_gain_token(dx_state *s, int player, int token) {
    s->p[player].tokens |= (uint16_t)(1u << token);
    if (DX_TOKENS_TABLE[token].coins) dx_gain_coins(s, player, DX_TOKENS_TABLE[token].coins);
    if (token == DC_T_LAW) return dx_gain_science(s, player, DC_SCIENCE_LAW_BIT);
    return 0;
}

/* _remove_from_structure */
static void dx_remove_from_structure(dx_state *s, int slot) {
    const dx_layout *layout = dx_layout_of(s, s->age);
    s->pyramid[slot] = DC_TAKEN;
    s->mythology_on[slot] = -1;
    s->offering_on[slot] = 0;
    uint32_t bit = 1u << slot;
    s->present &= ~bit;
    s->accessible &= ~bit;
    s->reveal &= ~bit;
    for (uint32_t under = layout->covers[slot]; under; under &= under - 1) {
        int u = dc_ctz32(under);
        if (!(s->present >> u & 1)) continue;
        if (!(s->present & layout->covered_by[u])) {
            s->accessible |= 1u << u;
            if (s->pyramid[u] == DC_HIDDEN) s->reveal |= 1u << u;
        }
    }
}

/* _take_from_pyramid: `card` is accessible (a legal move) */
static void dx_take_from_pyramid(dx_state *s, int card) {
    int n = dx_slots(s);
    for (int slot = 0; slot < n; slot++)
        if (s->pyramid[slot] == card) {
            dx_remove_from_structure(s, slot);
            return;
        }
}

/* _take_uncovered_tokens: false if a Mythology token needs the player's draw first. */
static int dx_take_uncovered_tokens(dx_state *s) {
    /* the tokens lie on accessible slots only once uncovered: walk those, lowest first */
    for (uint32_t acc = s->accessible; acc; acc &= acc - 1) {
        int slot = dc_ctz32(acc);
        if (s->offering_on[slot]) {
            int value = s->offering_on[slot];
            s->offering_on[slot] = 0;
            for (int i = 0; i < 3; i++)
                if (DX_OFFERINGS[i] == value) s->p[s->to_move].offerings |= (uint8_t)(1u << i);
        }
    }
    for (uint32_t acc = s->accessible; acc; acc &= acc - 1) {
        int slot = dc_ctz32(acc);
        if (s->mythology_on[slot] >= 0) {
            int mythology = s->mythology_on[slot];
            s->mythology_on[slot] = -1;
            dx_city *city = &s->p[s->to_move];
            city->mythology[city->n_mythology++] = (int8_t)mythology;
            if (s->deck_size[mythology]) {
                s->drawing = (int8_t)mythology;
                s->phase = DX_DRAW_DIVINITIES;
                return 0;
            }
        }
    }
    return 1;
}

/* _civilian_end */
static void dx_civilian_end(dx_state *s) {
    int a = dx_total_points(s, 0), b = dx_total_points(s, 1), winner;
    if (a != b) {
        winner = a > b ? 0 : 1;
    } else {
        int blue_a = dx_card_points(s->p[0].cards & DX_BLUE);
        int blue_b = dx_card_points(s->p[1].cards & DX_BLUE);
        winner = blue_a == blue_b ? 2 : blue_a > blue_b ? 0 : 1;
    }
    dx_end_game(s, winner, DX_CIVILIAN);
}

static inline int dx_count_mythology_on(const dx_state *s) {
    int n = 0;
    for (int slot = 0; slot < DX_SLOTS; slot++) n += s->mythology_on[slot] >= 0;
    return n;
}

static inline int dx_any_offering_on(const dx_state *s) {
    for (int slot = 0; slot < DX_SLOTS; slot++)
        if (s->offering_on[slot]) return 1;
    return 0;
}

/* _next_layout_phase (the base game and Pantheon) */
static void dx_next_layout_phase(dx_state *s) {
    int pantheon = s->expansions & DX_PANTHEON, agora = s->expansions & DX_AGORA;
    int undealt = 0;
    if (agora)
        for (int x = 0; x < dx_slots(s); x++) undealt |= s->backs[x] == DX_BACK_NONE;
    if (agora && undealt)
        s->phase = DX_BACK;
    else if (!agora && s->age == 3 && !s->back_slots)
        s->phase = DX_DEAL_BACKS;
    else if (pantheon && s->age == 1 && dx_count_mythology_on(s) < 5)
        s->phase = DX_PLACE_MYTHOLOGY;
    else if (pantheon && s->age == 2 && !dx_any_offering_on(s))
        s->phase = DX_PLACE_OFFERINGS;
    else
        s->phase = DX_REVEAL;
}

/* _start_age */
static void dx_start_age(dx_state *s, int age, int to_move) {
    const dx_layout *layout = dx_layout_of(s, age);
    s->age = (int8_t)age;
    memset(s->pyramid, DC_HIDDEN, sizeof s->pyramid);
    s->present = (1u << layout->slots) - 1;
    s->accessible = layout->start;
    s->reveal = layout->face_up;
    s->unseen = age == 1 ? DC_AGE_DECK_1 : age == 2 ? DC_AGE_DECK_2 : DC_AGE_DECK_3;
    if (age == 3) s->unseen |= s->expansions & DX_PANTHEON ? DX_TEMPLES : DC_AGE_DECK_4;
    s->back_slots = 0;
    memset(s->backs, 0, sizeof s->backs);
    s->to_move = (int8_t)to_move;
    dx_next_layout_phase(s);
}

/* _finish_turn (the base game and Pantheon) */
static void dx_finish_turn(dx_state *s) {
    s->step = 0;
    if (s->n_pending) {
        if (!s->continuation) s->continuation = DX_CONT_FINISH | (uint32_t)s->to_move << 16;
        dx_resolve(s);
        return;
    }
    uint32_t continuation = s->continuation;
    s->continuation = 0;
    int kind = continuation & 0xFF, who = continuation >> 16 & 0xFF;
    if (kind == DX_CONT_FINISH) s->to_move = (int8_t)who;
    if (kind == DX_CONT_RESUME) {
        s->phase = (int8_t)(continuation >> 8 & 0xFF);
        s->to_move = (int8_t)who;
        return;
    }
    if (kind == DX_CONT_PLAY && s->present) { /* the rest of a turn after a Conspiracy */
        s->to_move = (int8_t)who;
        if ((s->expansions & DX_PANTHEON) && !dx_take_uncovered_tokens(s)) {
            s->continuation = continuation;
            return;
        }
        s->phase = s->reveal ? DX_REVEAL : DX_PLAY;
        return;
    }
    s->phase = DX_PLAY;
    if ((s->expansions & DX_PANTHEON) && !dx_take_uncovered_tokens(s)) return;
    int player = s->to_move, extra = s->extra;
    s->extra = 0;
    if (s->expansions & DX_AGORA) {
        s->triggered = 0;
        dx_city *city = &s->p[player];
        for (int k = 0; k < city->n_plots; k++) city->plot_flags[k] &= (uint8_t)~DX_PLOT_FRESH;
    }
    if (s->present) {
        s->to_move = (int8_t)(extra ? player : 1 - player);
        s->phase = s->reveal ? DX_REVEAL : DX_PLAY;
        return;
    }
    if (s->age == 3) {
        dx_civilian_end(s);
        return;
    }
    if (s->expansions & DX_AGORA) { /* the cards never seen in the Age were removed at setup */
        dc_cards deck = s->age == 1 ? DC_AGE_DECK_1 : DC_AGE_DECK_2;
        s->removed |= s->unseen & deck;
        s->removed_now_none = 1;
        s->n_removed_now = 0;
        memset(s->removed_now, 0, sizeof s->removed_now);
    }
    dx_start_age(s, s->age + 1, s->pawn > 0 ? 1 : s->pawn < 0 ? 0 : player);
}

/* _enki_waiting */
static int dx_enki_waiting(const dx_state *s) {
    if (s->enki_tokens || !dx_box_tokens(s)) return 0;
    for (int i = 0; i < DX_SPACES; i++)
        if (s->spaces[i].face_up && s->spaces[i].divinity == DX_ENKI) return 1;
    int ph = s->phase;
    if (ph == DX_TOP || ph == DX_DECK || ph == DX_GATE_CHOOSE || ph == DX_THEATER_CHOOSE)
        for (int k = 0; k < s->n_chosen; k++)
            if (s->chosen[k] == DX_ENKI) return 1;
    return 0;
}

/* _pantheon_awake: false while a chance node of it is pending. */
static int dx_pantheon_awake(dx_state *s) {
    for (int i = 0; i < DX_SPACES; i++)
        if (s->spaces[i].divinity != DX_EMPTY && !s->spaces[i].face_up) {
            s->phase = DX_FLIP;
            return 0;
        }
    int gate = 0, empty = -1;
    for (int i = 0; i < DX_SPACES; i++) {
        if (s->spaces[i].divinity == DX_GATE) gate = 1;
        if (s->spaces[i].divinity == DX_EMPTY && empty < 0) empty = i;
    }
    if (!gate && empty >= 0) s->spaces[empty] = (dx_space){DX_GATE, -1, -1, 1};
    if (dx_enki_waiting(s)) {
        s->phase = DX_ENKI_TOKENS;
        return 0;
    }
    return 1;
}

/* _after_layout */
static void dx_after_layout(dx_state *s) {
    if (s->age == 1) {
        s->phase = DX_PLAY;
        return;
    }
    if ((s->expansions & DX_PANTHEON) && s->age == 2 && !dx_pantheon_awake(s)) return;
    s->phase = DX_CHOOSE_STARTER;
}

/* science_symbols: the symbols as the table shows them (green cards, Law, the Snake) */
static int dx_science_symbols(const dx_state *s, int player) {
    const dx_city *city = &s->p[player], *other = &s->p[1 - player];
    int symbols = 0, list[DX_N_CARDS], n = dc_card_list(city->cards & DX_SCIENCE_CARDS, list);
    for (int i = 0; i < n; i++) symbols |= DX_CARDS_TABLE[list[i]].science;
    int ishtar = 0;
    for (int k = 0; k < city->n_divinities; k++) ishtar |= city->divinities[k] == DX_ISHTAR;
    if (dx_has(city->tokens, DC_T_LAW) || ishtar) symbols |= DC_SCIENCE_LAW_BIT;
    if (city->snake >= 0 && dc_has_card(other->cards, city->snake))
        symbols |= DX_CARDS_TABLE[(int)city->snake].science;
    return symbols;
}

/* symbol_count */
static int dx_symbol_count(const dx_state *s, int player, int symbol) {
    const dx_city *city = &s->p[player], *other = &s->p[1 - player];
    int count = 0, list[DX_N_CARDS], n = dc_card_list(city->cards & DX_SCIENCE_CARDS, list);
    for (int i = 0; i < n; i++) count += DX_CARDS_TABLE[list[i]].science == symbol;
    if (symbol == DC_SCIENCE_LAW_BIT) {
        count += dx_has(city->tokens, DC_T_LAW);
        for (int k = 0; k < city->n_divinities; k++) count += city->divinities[k] == DX_ISHTAR;
    }
    if (city->snake >= 0 && dc_has_card(other->cards, city->snake) &&
        DX_CARDS_TABLE[(int)city->snake].science == symbol)
        count++;
    return count;
}

/* check_science_supremacy: six for both players is a draw */
static int dx_check_science_supremacy(dx_state *s) {
    int a = dc_pop32(s->p[0].science) >= 6, b = dc_pop32(s->p[1].science) >= 6;
    if (a && b)
        dx_end_game(s, 2, DX_SCIENCE);
    else if (a || b)
        dx_end_game(s, a ? 0 : 1, DX_SCIENCE);
    return a || b;
}

/* recompute_science */
static int dx_recompute_science(dx_state *s) {
    for (int p = 0; p < 2; p++) s->p[p].science = (uint8_t)dx_science_symbols(s, p);
    return dx_check_science_supremacy(s);
}

/* _apply_build */
static void dx_apply_build(dx_state *s, int card) {
    int player = s->to_move, trade;
    int chained = dx_is_chained(s, player, card);
    int total = dx_card_price(s, player, card, &trade);
    dx_take_from_pyramid(s, card);
    if (chained) {
        if (dx_has(s->p[player].tokens, DC_T_URBANISM)) dx_gain_coins(s, player, 4);
    } else {
        dx_pay(s, player, total, trade);
    }
    if (dx_construct_card(s, player, card)) return;
    if (s->phase == DX_PLAY) dx_finish_turn(s);
}

/* _apply_discard */
static void dx_apply_discard(dx_state *s, int card) {
    int player = s->to_move;
    dx_take_from_pyramid(s, card);
    int bonus = dx_in_force(s, player, DX_D_SCRAP_DEALERS) ? 2 : 0;
    dx_gain_coins(s, player, 2 + dc_pop_cards(s->p[player].cards & DX_YELLOW) + bonus);
    s->discard |= DC_CARD_BIT(card);
    dx_finish_turn(s);
}

/* _build_wonder: true if the turn goes on in a sub-phase or the game ended. */
static int dx_build_wonder(dx_state *s, int player, int w, int card, int cost) {
    dx_city *city = &s->p[player], *other = &s->p[1 - player];
    dx_pay(s, player, cost, cost);
    city->wonders &= (uint16_t)~(1u << w);
    city->built |= (uint16_t)(1u << w);
    city->under[w] = (int8_t)card;
    city->econ += DX_WONDERS_TABLE[w].econ;
    if (dx_wonders_built(s) >= DC_MAX_WONDERS_BUILT) {
        city->wonders = 0; /* the eighth wonder goes back to the box */
        other->wonders = 0;
    }
    const dc_wonder_spec *spec = &DX_WONDERS_TABLE[w];
    if (spec->extra_turn || dx_has(city->tokens, DC_T_THEOLOGY)) s->extra = 1;
    if (s->expansions & DX_AGORA) {
        dx_tithes(s, -1);
        if (w == DX_W_CURIA_JULIA) {
            dx_push1(s, DX_STEP(DX_S_CURIA, player, 0, 0), 0);
        } else if (w == DX_W_KNOSSOS) {
            dx_push1(s, DX_STEP(DX_S_PLACE, player, 0, 0), 0);
            dx_push1(s, DX_STEP(DX_S_MOVE, player, 0, 0), 0);
        }
    }
    if (spec->coins) dx_gain_coins(s, player, spec->coins);
    if (spec->opponent_loses) dx_lose_coins(s, 1 - player, spec->opponent_loses);
    if (spec->shields && dx_move_pawn(s, player, spec->shields)) return 1;
    if (spec->destroy) {
        dc_cards colour = spec->destroy == 1 ? DX_BROWN : DX_GREY;
        if (other->cards & colour) {
            s->destroying = spec->destroy;
            s->phase = DX_DESTROY;
            return 1;
        }
    } else if (spec->mausoleum) {
        if (s->discard) {
            s->phase = DX_MAUSOLEUM;
            return 1;
        }
    } else if (spec->library) {
        if (dx_box_tokens(s)) {
            s->phase = DX_LIBRARY_DRAW;
            return 1;
        }
    } else if (w == DX_W_DIVINE_THEATER) {
        for (int m = 0; m < DX_N_MYTHOLOGIES; m++)
            if (s->deck_size[m]) {
                s->phase = DX_THEATER_DECK;
                return 1;
            }
    }
    return 0;
}

/* _apply_wonder */
static void dx_apply_wonder(dx_state *s, int w, int card) {
    int player = s->to_move, cost = dx_wonder_cost(s, player, w);
    dx_take_from_pyramid(s, card);
    if (!dx_build_wonder(s, player, w, card, cost)) dx_finish_turn(s);
}

/* _apply_pick */
static void dx_apply_pick(dx_state *s, int w) {
    int picks = s->picks, player = DC_DRAFT_ORDER[picks];
    int drafted_owner[2] = {player, -1}, drafted[2] = {w, -1};
    s->p[player].wonders |= (uint16_t)(1u << w);
    uint16_t offer = s->offer & (uint16_t)~(1u << w);
    picks++;
    if (dc_pop32(offer) == 1) {
        drafted_owner[1] = DC_DRAFT_ORDER[picks];
        drafted[1] = dc_ctz32(offer);
        s->p[DC_DRAFT_ORDER[picks]].wonders |= offer;
        offer = 0;
        picks++;
    }
    s->offer = offer;
    s->picks = (uint8_t)picks;
    if (picks == 8) {
        s->wonders_unseen = 0;
        dx_start_age(s, 1, 0);
    } else if (offer) {
        s->to_move = (int8_t)DC_DRAFT_ORDER[picks];
    } else {
        s->phase = DX_SETUP_WONDERS;
        s->to_move = (int8_t)DC_DRAFT_ORDER[picks];
    }
    if (s->expansions & DX_AGORA) { /* drafting Curia Julia: Conspire; Knossos: a cube */
        int any = 0;
        for (int i = 0; i < 2; i++) {
            if (drafted[i] == DX_W_CURIA_JULIA) {
                dx_push1(s, DX_STEP(DX_S_CONSPIRE, drafted_owner[i], 0, 0), 0);
                any = 1;
            } else if (drafted[i] == DX_W_KNOSSOS) {
                dx_push1(s, DX_STEP(DX_S_PLACE, drafted_owner[i], 0, 0), 0);
                any = 1;
            }
        }
        if (any) {
            s->continuation = DX_CONT_RESUME | (uint32_t)(uint8_t)s->phase << 8 |
                              (uint32_t)s->to_move << 16;
            dx_resolve(s);
        }
    }
}

/* _apply_token */
static void dx_apply_token(dx_state *s, int token) {
    if (s->phase == DX_LIBRARY_CHOOSE)
        s->library = 0;
    else if (s->phase == DX_ENKI_CHOOSE)
        s->enki_tokens = 0; /* the other one goes back to the box */
    else if (s->phase == DX_ESPIONAGE)
        ; /* from the box */
    else
        s->board &= (uint16_t)~(1u << token);
    s->phase = DX_PLAY;
    if (dx_gain_token(s, s->to_move, token)) return;
    if (s->phase == DX_PLAY) dx_finish_turn(s);
}

/* _apply_destroy */
static void dx_apply_destroy(dx_state *s, int card) {
    dx_city *victim = &s->p[1 - s->to_move];
    victim->cards &= ~DC_CARD_BIT(card);
    dx_recount_city(victim);
    s->discard |= DC_CARD_BIT(card);
    s->destroying = 0;
    dx_finish_turn(s);
}

/* _apply_mausoleum (The Mausoleum and Hades) */
static void dx_apply_mausoleum(dx_state *s, int card) {
    s->discard &= ~DC_CARD_BIT(card);
    s->phase = DX_PLAY;
    if (dx_construct_card(s, s->to_move, card)) return;
    if (s->phase == DX_PLAY) dx_finish_turn(s);
}

/* _discard_from_structure (Zeus) */
static void dx_discard_from_structure(dx_state *s, int slot, int card) {
    s->discard |= DC_CARD_BIT(card);
    s->mythology_on[slot] = -1;
    s->offering_on[slot] = 0;
    s->n_chosen = 0;
    s->chosen[0] = 0;
    dx_remove_from_structure(s, slot);
    dx_finish_turn(s);
}

/* _apply_reveal_card */
static void dx_apply_reveal_card(dx_state *s, int slot, int card) {
    if (card >= DX_FIRST_SENATOR) s->senators_seen |= DC_CARD_BIT(card);
    s->unseen &= ~DC_CARD_BIT(card);
    if (s->phase == DX_ZEUS_REVEAL) {
        dx_discard_from_structure(s, slot, card);
        return;
    }
    s->pyramid[slot] = (int8_t)card;
    s->reveal &= ~(1u << slot);
    if (!s->reveal) {
        if (s->present == (1u << dx_slots(s)) - 1)
            dx_after_layout(s);
        else if (s->n_pending || s->continuation)
            dx_finish_turn(s); /* Agora: the steps these cards interrupted go on */
        else
            s->phase = DX_PLAY;
    }
}

/* _apply_reveal_wonder, _apply_reveal_token */
static void dx_apply_reveal_wonder(dx_state *s, int w) {
    s->wonders_unseen &= (uint16_t)~(1u << w);
    s->offer |= (uint16_t)(1u << w);
    if (dc_pop32(s->offer) == 4) s->phase = DX_DRAFT;
}

static void dx_apply_reveal_token(dx_state *s, int token) {
    s->board |= (uint16_t)(1u << token);
    if (dc_pop32(s->board) == 5) {
        s->phase = DX_SETUP_WONDERS;
        if (s->expansions & DX_AGORA) dx_setup_decrees(s);
    }
}

/* _apply_place_mythology, _apply_place_offerings (the order's index in OFFERING_ORDERS) */
static const uint8_t DX_OFFERING_ORDERS[6][3] = {
    {0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};

static void dx_apply_place_offerings(dx_state *s, int order) {
    const uint8_t *slots = s->expansions & DX_AGORA ? DX_OFFERING_SLOTS_AGORA
                                                     : DX_OFFERING_SLOTS_BASE;
    for (int i = 0; i < 3; i++)
        s->offering_on[slots[i]] = (int8_t)DX_OFFERINGS[DX_OFFERING_ORDERS[order][i]];
    dx_next_layout_phase(s);
}

/* Put Divinities into a deck's known tops at `at` (0: on top). */
static void dx_push_top(dx_state *s, int m, int divinity, int known_to) {
    for (int k = s->n_tops[m]; k > 0; k--) {
        s->top_divinity[m][k] = s->top_divinity[m][k - 1];
        s->top_known_to[m][k] = s->top_known_to[m][k - 1];
    }
    s->top_divinity[m][0] = (int8_t)divinity;
    s->top_known_to[m][0] = (uint8_t)known_to;
    s->n_tops[m]++;
}

static void dx_drop_tops(dx_state *s, int m, int count) {
    int n = s->n_tops[m], keep = n > count ? n - count : 0;
    for (int k = 0; k < keep; k++) {
        s->top_divinity[m][k] = s->top_divinity[m][k + count];
        s->top_known_to[m][k] = s->top_known_to[m][k + count];
    }
    for (int k = keep; k < DX_DECK_MAX; k++) {
        s->top_divinity[m][k] = 0;
        s->top_known_to[m][k] = 0;
    }
    s->n_tops[m] = (uint8_t)keep;
}

/* The tops of deck `m` become `cards` in that order, all public. */
static void dx_set_public_tops(dx_state *s, int m, const int8_t *cards, int n) {
    memset(s->top_divinity[m], 0, sizeof s->top_divinity[m]);
    memset(s->top_known_to[m], 0, sizeof s->top_known_to[m]);
    for (int k = 0; k < n; k++) {
        s->top_divinity[m][k] = cards[k];
        s->top_known_to[m][k] = 3;
    }
    s->n_tops[m] = (uint8_t)n;
}

/* The Divinities of a local mask of Mythology `m` sorted by name (Python sorts the names). */
static int dx_names_sorted(int m, int local_mask, int8_t *out) {
    int n = 0;
    for (int i = 0; i < DX_MYTHOLOGY_SIZE[m]; i++) {
        if (!(local_mask >> i & 1)) continue;
        int d = DX_MYTHOLOGY_FIRST[m] + i, k = n++;
        while (k > 0 && DX_DIVINITY_RANK[out[k - 1]] > DX_DIVINITY_RANK[d]) {
            out[k] = out[k - 1];
            k--;
        }
        out[k] = (int8_t)d;
    }
    return n;
}

/* _apply_draw_divinities */
static void dx_apply_draw_divinities(dx_state *s, int m, int b) {
    int count = s->deck_size[m] < 2 ? s->deck_size[m] : 2;
    s->deck_size[m] -= (uint8_t)count;
    dx_drop_tops(s, m, count);
    if (b & DX_DRAWN_UNSEEN) {
        s->drawn_unseen = 1;
        s->n_drawn = 0;
    } else {
        s->n_drawn = (uint8_t)dx_names_sorted(m, b, s->drawn);
    }
    s->n_chosen = 1;
    s->chosen[0] = (int8_t)count;
    s->phase = DX_SEAT;
}

/* _apply_seat */
static void dx_apply_seat(dx_state *s, int divinity, int m, int space) {
    int player = s->to_move;
    s->spaces[space - 1] = (dx_space){(int8_t)divinity, (int8_t)m, (int8_t)player, 0};
    if (s->chosen[0] == 2) {
        int other = DX_UNKNOWN;
        if (!s->drawn_unseen) other = s->drawn[0] == divinity ? s->drawn[1] : s->drawn[0];
        dx_push_top(s, m, other, 1 << player);
        s->deck_size[m]++;
    }
    s->drawn_unseen = 0;
    s->n_drawn = 0;
    s->drawn[0] = s->drawn[1] = 0;
    s->drawing = -1;
    s->n_chosen = 0;
    s->chosen[0] = 0;
    /* another token the same discard uncovered goes out before the turn's next step */
    if ((s->expansions & DX_PANTHEON) && !dx_take_uncovered_tokens(s)) return;
    dx_finish_turn(s);
}

/* _apply_flip */
static void dx_apply_flip(dx_state *s, int space, int divinity) {
    s->spaces[space - 1].divinity = (int8_t)divinity;
    s->spaces[space - 1].face_up = 1;
    if (dx_pantheon_awake(s)) s->phase = DX_CHOOSE_STARTER;
}

/* _apply_enki_tokens */
static void dx_apply_enki_tokens(dx_state *s, int mask) {
    s->enki_tokens = (uint16_t)mask;
    if (s->n_revealing && s->revealing[0] == DX_REVEALING_GATE) {
        s->n_revealing = 0;
        s->revealing[0] = 0;
        s->phase = DX_GATE_CHOOSE;
    } else if (s->n_revealing && s->revealing[0] == DX_REVEALING_THEATER) {
        s->n_revealing = 0;
        s->revealing[0] = 0;
        s->phase = DX_THEATER_CHOOSE;
    } else {
        s->phase = DX_CHOOSE_STARTER;
    }
}

static void dx_clear_revealing(dx_state *s) {
    s->n_revealing = 0;
    memset(s->revealing, 0, sizeof s->revealing);
}

static void dx_clear_chosen(dx_state *s) {
    s->n_chosen = 0;
    memset(s->chosen, 0, sizeof s->chosen);
}

/* _activate: take `divinity` into `player`'s city and apply its effect. */
static void dx_activate(dx_state *s, int player, int divinity) {
    dx_city *city = &s->p[player], *other = &s->p[1 - player];
    city->divinities[city->n_divinities++] = (int8_t)divinity;
    s->phase = DX_PLAY;
    if (divinity == DX_GATE) {
        int n = 0;
        for (int m = 0; m < DX_N_MYTHOLOGIES; m++)
            if (s->deck_size[m]) s->revealing[n++] = (int8_t)m;
        if (n) {
            s->n_revealing = (uint8_t)n;
            dx_clear_chosen(s);
            s->phase = DX_TOP;
            return;
        }
        dx_finish_turn(s);
        return;
    }
    const dx_divinity_spec *spec = &DX_DIVINITIES[divinity];
    int phase = -1;
    switch (spec->effect) {
    case DX_E_ENKI:
        if (s->enki_tokens) phase = DX_ENKI_CHOOSE;
        break;
    case DX_E_ISHTAR:
        if (dx_gain_science(s, player, DC_SCIENCE_LAW_BIT)) return;
        break;
    case DX_E_NISABA:
        if (other->cards & DX_SCIENCE_CARDS) phase = DX_NISABA;
        break;
    case DX_E_ASTARTE: city->astarte += spec->amount; break;
    case DX_E_BAAL:
        if (other->cards & (DX_BROWN | DX_GREY)) phase = DX_BAAL;
        break;
    case DX_E_TANIT: dx_gain_coins(s, player, spec->amount); break;
    case DX_E_HADES:
        if (s->discard) phase = DX_MAUSOLEUM;
        break;
    case DX_E_ZEUS:
        if (s->present) phase = DX_ZEUS;
        break;
    case DX_E_ANUBIS:
        if (city->built || other->built) phase = DX_ANUBIS;
        break;
    case DX_E_ISIS:
        if (city->wonders && s->discard && dx_wonders_built(s) < DC_MAX_WONDERS_BUILT)
            phase = DX_ISIS;
        break;
    case DX_E_RA:
        if (other->wonders) phase = DX_RA;
        break;
    case DX_E_MARS:
        if (dx_move_pawn(s, player, spec->amount)) return;
        break;
    case DX_E_MINERVA: phase = DX_MINERVA; break;
    case DX_E_NEPTUNE:
        if (s->military) phase = DX_NEPTUNE_REMOVE;
        break;
    default: break;
    }
    if (phase >= 0) {
        s->phase = (int8_t)phase;
        return;
    }
    if (s->phase == DX_PLAY) dx_finish_turn(s);
}

/* _apply_activate: b is the mask of Offering tokens spent. */
static void dx_apply_activate(dx_state *s, int divinity, int offerings) {
    int player = s->to_move, index = 0;
    for (int i = 0; i < DX_SPACES; i++)
        if (s->spaces[i].divinity == divinity) {
            index = i;
            break;
        }
    int discount = 0;
    for (int i = 0; i < 3; i++)
        if (offerings >> i & 1) discount += DX_OFFERINGS[i];
    int price = dx_activation_price(s, player, index) - discount;
    s->p[player].offerings &= (uint8_t)~offerings;
    dx_pay(s, player, price > 0 ? price : 0, 0);
    s->spaces[index] = (dx_space){DX_EMPTY, 0, 0, 0};
    dx_activate(s, player, divinity);
}

/* _apply_snake */
static void dx_apply_snake(dx_state *s, int card) {
    s->phase = DX_PLAY;
    s->p[s->to_move].snake = (int8_t)card;
    if (dx_gain_science(s, s->to_move, DX_CARDS_TABLE[card].science)) return;
    if (s->phase == DX_PLAY) dx_finish_turn(s);
}

/* _apply_take (Baal) */
static void dx_apply_take(dx_state *s, int card) {
    int player = s->to_move;
    s->p[1 - player].cards &= ~DC_CARD_BIT(card);
    dx_recount_city(&s->p[1 - player]);
    dx_add_card(&s->p[player], card);
    dx_finish_turn(s);
}

/* _apply_zeus */
static void dx_apply_zeus(dx_state *s, int slot) {
    int card = s->pyramid[slot];
    if (card == DC_HIDDEN) { /* turned over on its way to the discard pile */
        s->n_chosen = 1;
        s->chosen[0] = (int8_t)slot;
        s->phase = DX_ZEUS_REVEAL;
        return;
    }
    dx_discard_from_structure(s, slot, card);
}

/* _apply_unbuild (Anubis) */
static void dx_apply_unbuild(dx_state *s, int w) {
    int owner = dx_has(s->p[0].built, w) ? 0 : 1;
    dx_city *city = &s->p[owner];
    int card = city->under[w];
    city->built &= (uint16_t)~(1u << w);
    city->under[w] = -1;
    city->wonders |= (uint16_t)(1u << w);
    dx_recount_city(city);
    s->discard |= DC_CARD_BIT(card);
    dx_finish_turn(s);
}

/* _apply_isis */
static void dx_apply_isis(dx_state *s, int w, int card) {
    s->discard &= ~DC_CARD_BIT(card);
    s->phase = DX_PLAY;
    if (!dx_build_wonder(s, s->to_move, w, card, 0)) dx_finish_turn(s);
}

/* _apply_steal (Ra) */
static void dx_apply_steal(dx_state *s, int w) {
    int player = s->to_move;
    s->p[1 - player].wonders &= (uint16_t)~(1u << w);
    s->p[player].wonders |= (uint16_t)(1u << w);
    dx_finish_turn(s);
}

/* _apply_remove, _apply_military_token (Neptune) */
static void dx_apply_remove(dx_state *s, int token) {
    s->military &= (uint8_t)~(1u << token);
    if (s->military) {
        s->phase = DX_NEPTUNE_APPLY;
        return;
    }
    dx_finish_turn(s);
}

static void dx_apply_military_token(dx_state *s, int token) {
    static const int loss[4] = {2, 5, 2, 5};
    s->military &= (uint8_t)~(1u << token);
    if (s->expansions & DX_AGORA) /* Neptune with Agora: the Agora token's effect */
        dx_military_token(s, s->to_move, loss[token] == 5);
    else
        dx_lose_coins(s, 1 - s->to_move, loss[token]);
    dx_finish_turn(s);
}

/* _apply_top (the Gate turns up the top card of each deck) */
static void dx_apply_top(dx_state *s, int m, int divinity) {
    if (s->n_tops[m]) {
        s->top_divinity[m][0] = (int8_t)divinity;
        s->top_known_to[m][0] = 3;
    } else {
        dx_push_top(s, m, divinity, 3);
    }
    s->chosen[s->n_chosen++] = (int8_t)divinity;
    for (int k = 0; k + 1 < s->n_revealing; k++) s->revealing[k] = s->revealing[k + 1];
    s->revealing[--s->n_revealing] = 0;
    if (s->n_revealing) return;
    if (dx_enki_waiting(s)) {
        s->n_revealing = 1;
        s->revealing[0] = DX_REVEALING_GATE;
        s->phase = DX_ENKI_TOKENS;
        return;
    }
    s->phase = DX_GATE_CHOOSE;
}

/* _apply_theater, _apply_deck (The Divine Theater turns up a whole deck) */
static void dx_apply_theater(dx_state *s, int m) {
    s->n_revealing = 1;
    s->revealing[0] = (int8_t)m;
    s->phase = DX_DECK;
}

static void dx_apply_deck(dx_state *s, int m, int local_mask) {
    int8_t cards[DX_DECK_MAX];
    int n = dx_names_sorted(m, local_mask, cards);
    dx_set_public_tops(s, m, cards, n);
    dx_clear_chosen(s);
    for (int k = 0; k < n; k++) s->chosen[k] = cards[k];
    s->n_chosen = (uint8_t)n;
    dx_clear_revealing(s);
    if (dx_enki_waiting(s)) {
        s->n_revealing = 1;
        s->revealing[0] = DX_REVEALING_THEATER;
        s->phase = DX_ENKI_TOKENS;
        return;
    }
    s->phase = DX_THEATER_CHOOSE;
}

/* _apply_choose (the Gate's or the Theater's Divinity) */
static void dx_apply_choose(dx_state *s, int divinity) {
    int player = s->to_move, m = DX_DIVINITIES[divinity].mythology;
    int n = 0;
    for (int k = 0; k < s->n_tops[m]; k++)
        if (s->top_divinity[m][k] != divinity) {
            s->top_divinity[m][n] = s->top_divinity[m][k];
            s->top_known_to[m][n] = s->top_known_to[m][k];
            n++;
        }
    for (int k = n; k < DX_DECK_MAX; k++) s->top_divinity[m][k] = s->top_known_to[m][k] = 0;
    s->n_tops[m] = (uint8_t)n;
    s->deck_size[m]--;
    int enki_chosen = 0;
    for (int k = 0; k < s->n_chosen; k++) enki_chosen |= s->chosen[k] == DX_ENKI;
    if (enki_chosen && divinity != DX_ENKI) s->enki_tokens = 0;
    if (s->phase == DX_THEATER_CHOOSE && s->n_chosen > 2) {
        int k2 = 0;
        for (int k = 0; k < s->n_chosen; k++)
            if (s->chosen[k] != divinity) s->chosen[k2++] = s->chosen[k];
        for (int k = k2; k < DX_N_MYTHOLOGIES; k++) s->chosen[k] = 0;
        s->n_chosen = (uint8_t)k2;
        s->n_revealing = 1;
        s->revealing[0] = (int8_t)(DX_REVEALING_DIVINITY + divinity);
        s->phase = DX_THEATER_ORDER;
        return;
    }
    dx_clear_chosen(s);
    dx_activate(s, player, divinity);
}

/* _apply_order: `code` holds the Divinities 5 bits each, 31 past the end. */
static void dx_apply_order(dx_state *s, int code) {
    int divinity = s->revealing[0] - DX_REVEALING_DIVINITY, m = DX_DIVINITIES[divinity].mythology;
    int8_t cards[DX_DECK_MAX];
    int n = 0;
    for (int k = 0; k < DX_DECK_MAX; k++) {
        int d = code >> (5 * k) & 31;
        if (d != 31) cards[n++] = (int8_t)d;
    }
    dx_set_public_tops(s, m, cards, n);
    dx_clear_revealing(s);
    dx_clear_chosen(s);
    dx_activate(s, s->to_move, divinity);
}

DX_API void dx_apply(dx_state *s, int32_t move) {
    int a = DX_A(move), b = DX_B(move);
    switch (DX_KIND(move)) {
    case DX_K_BUILD: dx_apply_build(s, b); break;
    case DX_K_DISCARD: dx_apply_discard(s, b); break;
    case DX_K_WONDER: dx_apply_wonder(s, a, b); break;
    case DX_K_PICK: dx_apply_pick(s, a); break;
    case DX_K_TOKEN: dx_apply_token(s, a); break;
    case DX_K_DESTROY_CARD: dx_apply_destroy(s, b); break;
    case DX_K_MAUSOLEUM_CARD: dx_apply_mausoleum(s, b); break;
    case DX_K_START:
        s->to_move = (int8_t)a;
        s->phase = DX_PLAY;
        break;
    case DX_K_REVEAL_CARD: dx_apply_reveal_card(s, a, b); break;
    case DX_K_REVEAL_WONDER: dx_apply_reveal_wonder(s, a); break;
    case DX_K_REVEAL_TOKEN: dx_apply_reveal_token(s, a); break;
    case DX_K_LIBRARY_DRAW_MOVE:
        s->library = (uint16_t)DX_LOW(move);
        s->phase = DX_LIBRARY_CHOOSE;
        break;
    case DX_K_DEAL_BACKS_MOVE:
        s->back_slots = DC_GUILD_DEALS[DX_LOW(move)];
        dx_next_layout_phase(s);
        break;
    case DX_K_PLACE_MYTHOLOGY_MOVE:
        s->mythology_on[a] = (int8_t)b;
        dx_next_layout_phase(s);
        break;
    case DX_K_PLACE_OFFERINGS_MOVE: dx_apply_place_offerings(s, a); break;
    case DX_K_DRAW_DIVINITIES_MOVE: dx_apply_draw_divinities(s, a, b); break;
    case DX_K_SEAT_MOVE:
        dx_apply_seat(s, a == DX_NO_DIVINITY ? DX_UNKNOWN : a, b >> 4, b & 15);
        break;
    case DX_K_FLIP_MOVE: dx_apply_flip(s, a, b); break;
    case DX_K_ENKI_TOKENS_MOVE: dx_apply_enki_tokens(s, DX_LOW(move)); break;
    case DX_K_TOP_MOVE: dx_apply_top(s, a, b); break;
    case DX_K_DECK_MOVE: dx_apply_deck(s, a, b); break;
    case DX_K_ACTIVATE: dx_apply_activate(s, a, b); break;
    case DX_K_SNAKE: dx_apply_snake(s, b); break;
    case DX_K_TAKE: dx_apply_take(s, b); break;
    case DX_K_ZEUS_MOVE: dx_apply_zeus(s, a); break;
    case DX_K_UNBUILD: dx_apply_unbuild(s, a); break;
    case DX_K_ISIS_MOVE: dx_apply_isis(s, a, b); break;
    case DX_K_STEAL: dx_apply_steal(s, a); break;
    case DX_K_MINERVA_MOVE:
        s->minerva = (int8_t)(a - 9);
        dx_finish_turn(s);
        break;
    case DX_K_REMOVE: dx_apply_remove(s, a); break;
    case DX_K_APPLY: dx_apply_military_token(s, a); break;
    case DX_K_THEATER: dx_apply_theater(s, a); break;
    case DX_K_CHOOSE: dx_apply_choose(s, a); break;
    case DX_K_ORDER: dx_apply_order(s, DX_LOW(move)); break;
    default: dx_apply_agora(s, move); break;
    }
}

/*
 * xcore_senate.c -- Agora's rules: the Senate, Senators, Conspiracies, the queue of steps
 * (duel/expansions/senate.py in C; its module docstring explains the steps and the
 * continuation). Each function names the senate.py function it mirrors.
 */
#include "xcore_rules.c"

static inline int dx_cubes_placed(const dx_state *s, int p) {
    int n = 0;
    for (int c = 0; c < 6; c++) n += s->senate[c][p];
    return n;
}

/* supply */
static inline int dx_supply(const dx_state *s, int p) { return DX_CUBES - dx_cubes_placed(s, p); }

/* push: steps at the back of the queue, or at its front (in their order) */
static void dx_push(dx_state *s, const uint32_t *steps, int n, int front) {
    if (front) {
        memmove(s->pending + n, s->pending, s->n_pending * sizeof s->pending[0]);
        memcpy(s->pending, steps, n * sizeof steps[0]);
    } else {
        memcpy(s->pending + s->n_pending, steps, n * sizeof steps[0]);
    }
    s->n_pending = (uint8_t)(s->n_pending + n);
}

static inline void dx_push1(dx_state *s, uint32_t step, int front) { dx_push(s, &step, 1, front); }

static uint32_t dx_pop_front(dx_state *s) {
    uint32_t step = s->pending[0];
    s->n_pending--;
    memmove(s->pending, s->pending + 1, s->n_pending * sizeof s->pending[0]);
    s->pending[s->n_pending] = 0;
    return step;
}

/* check_politics */
static void dx_check_politics(dx_state *s) {
    int owner = dx_controller(s, 0);
    if (owner < 0 || s->phase == DX_GAME_OVER) return;
    for (int c = 1; c < 6; c++)
        if (dx_controller(s, c) != owner) return;
    dx_end_game(s, owner, DX_POLITICAL);
}

static inline int dx_decree_up(const dx_state *s, int chamber, int decree) {
    for (int k = 0; k < s->n_decrees[chamber]; k++)
        if (s->decree[chamber][k] == decree) return 1;
    return 0;
}

/* control_changed: Chamber index `c` (0-5) changed hands. */
static void dx_control_changed(dx_state *s, int c, int old, int new_) {
    if (new_ >= 0) {
        uint32_t steps[DX_MAX_DECREES];
        int hidden = 0;
        for (int k = 0; k < s->n_decrees[c]; k++)
            if (s->decree[c][k] < 0) steps[hidden++] = DX_STEP(DX_S_DECREE, c + 1, 0, 0);
        if (hidden) dx_push(s, steps, hidden, 1);
    }
    if (dx_decree_up(s, c, DX_D_STANDING_ARMY)) {
        if (old >= 0 && dx_move_pawn(s, 1 - old, 1)) return;
        if (new_ >= 0) dx_move_pawn(s, new_, 1);
    }
}

/* change_cubes: Chamber index `c` (0-5) */
static void dx_change_cubes(dx_state *s, int c, int player, int delta) {
    int before[6];
    for (int i = 0; i < 6; i++) before[i] = dx_controller(s, i);
    s->senate[c][player] = (uint8_t)(s->senate[c][player] + delta);
    dx_refresh_forces(s);
    for (int i = 0; i < 6; i++) {
        int after = dx_controller(s, i);
        if (after != before[i]) {
            dx_control_changed(s, i, before[i], after);
            if (s->phase == DX_GAME_OVER) return;
        }
    }
    dx_check_politics(s);
}

static int dx_lockable(const dx_state *s, int player) {
    return s->board | s->p[1 - player].tokens | dx_box_tokens(s);
}

/* _fraud_cards, as a slot mask */
static uint32_t dx_fraud_slots(const dx_state *s) {
    if (!s->age) return 0;
    uint32_t out = 0;
    for (uint32_t row = dx_layout_of(s, s->age)->rows0; row; row &= row - 1) {
        int slot = dc_ctz32(row), card = s->pyramid[slot];
        if ((s->present >> slot & 1) && card >= 0 && card < DX_FIRST_SENATOR) out |= 1u << slot;
    }
    return out;
}

/* treason_cards */
static dc_cards dx_treason_cards(const dx_state *s) {
    dc_cards known = s->removed;
    if (!s->removed_now_none)
        for (int k = 0; k < s->n_removed_now; k++) known |= DC_CARD_BIT(s->removed_now[k]);
    return known & ~(s->p[0].cards | s->p[1].cards | s->discard);
}

/* _swaps: (mine, theirs) codes into out, blue pairs then green */
static int dx_swaps(const dx_state *s, int player, int32_t *out, int kind) {
    int n = 0;
    const dc_cards colours[2] = {DX_BLUE, DX_GREEN};
    for (int k = 0; k < 2; k++) {
        int mine[DX_N_CARDS], theirs[DX_N_CARDS];
        int a = dc_card_list(s->p[player].cards & colours[k], mine);
        int b = dc_card_list(s->p[1 - player].cards & colours[k], theirs);
        for (int i = 0; i < a; i++)
            for (int j = 0; j < b; j++) {
                if (out) out[n] = DX_MOVE(kind, mine[i], theirs[j]);
                n++;
            }
    }
    return n;
}

/* unaccounted_plots, as a mask of Conspiracy ids */
static uint32_t dx_unaccounted_plots(const dx_state *s) {
    uint32_t known = 0;
    for (int p = 0; p < 2; p++)
        for (int k = 0; k < s->p[p].n_plots; k++)
            if (s->p[p].plot_name[k] >= 0) known |= 1u << s->p[p].plot_name[k];
    for (int k = 0; k < s->n_plot_top; k++)
        if (s->plot_top[k] >= 0) known |= 1u << s->plot_top[k];
    for (int k = 0; k < s->n_plot_bottom; k++)
        if (s->plot_bottom[k] >= 0) known |= 1u << s->plot_bottom[k];
    for (int k = 0; k < s->n_drawn_plots; k++) known |= 1u << s->drawn_plots[k];
    return ((1u << DX_N_CONSPIRACIES) - 1) & ~known;
}

static void dx_resolve(dx_state *s);

/* useful_to_trigger: whether triggering Conspiracy `name` now could do anything (its main
 * effect has a target, or its cube move has a cube to use) */
static int dx_useful_to_trigger(const dx_state *s, int player, int name) {
    const dx_city *opponent = &s->p[1 - player];
    int mine = dx_cubes_placed(s, player), theirs = dx_cubes_placed(s, 1 - player);
    switch (name) {
    case DX_C_EXTORTION: return opponent->wonders || mine > 0;
    case DX_C_BLACKMAIL: return opponent->coins > 0 || mine > 0;
    case DX_C_EXPROPRIATION: return (opponent->cards & DX_BLUE) != 0 || mine > 0;
    case DX_C_SWINDLE: return (opponent->cards & DX_YELLOW) != 0 || mine > 0;
    case DX_C_PROPERTY_FRAUD: return dx_fraud_slots(s) != 0;
    case DX_C_POLITICAL_MANEUVER: return dx_supply(s, player) > 0 || theirs > 0 || mine > 0;
    case DX_C_TURN_OF_EVENTS: return s->present || mine > 0;
    case DX_C_EMBEZZLEMENT: return mine > 0 || (theirs > 0 && opponent->coins > 0);
    case DX_C_FORECLOSURE: return (opponent->cards & (DX_BROWN | DX_GREY)) != 0;
    case DX_C_COERCION: return dx_swaps(s, player, NULL, 0) || mine > 0;
    case DX_C_SABOTAGE: return opponent->built != 0;
    default: return 1; /* Obscurantism, Coup, Treason, Espionage, Insider Influence */
    }
}

/* _auto_coins */
static void dx_auto_coins(dx_state *s, int player, int what) {
    int opponent = 1 - player;
    if (what == 0) { /* Blackmail */
        int amount = (s->p[opponent].coins + 1) / 2;
        dx_lose_coins(s, opponent, amount);
        dx_gain_coins(s, player, amount);
    } else { /* Embezzlement */
        dx_gain_coins(s, player, dx_cubes_placed(s, player));
        dx_lose_coins(s, opponent, dx_cubes_placed(s, opponent));
    }
}

static inline int dx_any_opponent_cubes(const dx_state *s, int player) {
    for (int c = 0; c < 6; c++)
        if (s->senate[c][1 - player]) return 1;
    return 0;
}

/* _start_step: true if it was applied at once, false if it is now the phase. */
static int dx_start_step(dx_state *s, uint32_t step) {
    int kind = DX_STEP_KIND(step);
    if (kind == DX_S_DECREE) {
        s->step = step;
        s->phase = DX_DECREE;
        return 0;
    }
    int player = DX_STEP_A(step), wait = -1;
    const dx_city *opponent = &s->p[1 - player];
    switch (kind) {
    case DX_S_PLACE: wait = dx_supply(s, player) ? DX_PLACE : -1; break;
    case DX_S_EVICT: wait = dx_any_opponent_cubes(s, player) ? DX_EVICT : -1; break;
    case DX_S_MOVE: wait = dx_cubes_placed(s, player) ? DX_MOVE_CUBE : -1; break;
    case DX_S_SENATE: wait = DX_STEP_C(step) > 0 ? DX_SENATE : -1; break;
    case DX_S_CONSPIRATOR: wait = DX_CONSPIRATOR; break;
    case DX_S_CONSPIRE: wait = s->plot_size ? DX_DRAW_PLOTS : -1; break;
    case DX_S_STEAL: wait = opponent->wonders ? DX_RA : -1; break;
    case DX_S_DESTROY: {
        dc_cards colour = DX_STEP_B(step) == DX_DESTROY_BLUE ? DX_BLUE : DX_YELLOW;
        if (opponent->cards & colour) {
            s->destroying = (uint8_t)DX_STEP_B(step);
            wait = DX_DESTROY;
        }
        break;
    }
    case DX_S_LOCK: wait = dx_lockable(s, player) ? DX_LOCK_TOKEN : -1; break;
    case DX_S_FRAUD: wait = dx_fraud_slots(s) ? DX_FRAUD : -1; break;
    case DX_S_TREASON:
        wait = s->removed_now_none && s->age ? DX_TREASON_DEAL : DX_TREASON;
        break;
    case DX_S_ESPIONAGE: wait = dx_box_tokens(s) ? DX_ESPIONAGE : -1; break;
    case DX_S_DISCARD_ANY:
        if (s->reveal) { /* the cards the first discard uncovered are turned over first */
            dx_push1(s, step, 1);
            s->phase = DX_REVEAL;
            return 0;
        }
        wait = s->accessible ? DX_DISCARD_ANY : -1;
        break;
    case DX_S_TAKE: wait = opponent->cards & (DX_BROWN | DX_GREY) ? DX_BAAL : -1; break;
    case DX_S_COERCION: wait = dx_swaps(s, player, NULL, 0) ? DX_COERCION : -1; break;
    case DX_S_INSIDER: {
        int any = 0;
        for (int c = 0; c < 6; c++) any |= s->n_decrees[c] > 0;
        wait = any ? DX_INSIDER : -1;
        break;
    }
    case DX_S_SABOTAGE: wait = opponent->built ? DX_SABOTAGE : -1; break;
    case DX_S_CURIA: { /* skipped when no unprepared Conspiracy could do anything */
        const dx_city *city = &s->p[player];
        for (int k = 0; k < city->n_plots; k++)
            if (!(city->plot_flags[k] & (DX_PLOT_PREPARED | DX_PLOT_USED)) &&
                (city->plot_name[k] < 0 || dx_useful_to_trigger(s, player, city->plot_name[k])))
                wait = DX_CURIA;
        break;
    }
    case DX_S_PAIR: wait = s->board ? DX_CHOOSE_TOKEN : -1; break;
    case DX_S_SUPREMACY: dx_check_science_supremacy(s); break;
    case DX_S_COINS: dx_auto_coins(s, player, DX_STEP_B(step)); break;
    case DX_S_SHIELDS: dx_move_pawn(s, player, DX_STEP_B(step)); break;
    default: break;
    }
    if (wait < 0) return 1;
    s->step = step;
    s->phase = (int8_t)wait;
    s->to_move = (int8_t)player;
    return 0;
}

/* resolve */
static void dx_resolve(dx_state *s) {
    while (s->n_pending) {
        if (s->phase == DX_GAME_OVER) {
            s->n_pending = 0;
            memset(s->pending, 0, sizeof s->pending);
            s->continuation = 0;
            return;
        }
        uint32_t step = dx_pop_front(s);
        if (!dx_start_step(s, step)) return;
    }
    if (s->phase != DX_GAME_OVER) dx_finish_turn(s);
}

/* _done: a step was answered; the rest of the queue, then the continuation. */
static void dx_done(dx_state *s) {
    s->step = 0;
    s->phase = DX_PLAY;
    if (s->n_pending)
        dx_resolve(s);
    else
        dx_finish_turn(s);
}

/* conspiracy_steps */
static int dx_conspiracy_steps(int name, int player, uint32_t *out) {
    int n = 0;
    switch (name) {
    case DX_C_EXTORTION: out[n++] = DX_STEP(DX_S_STEAL, player, 0, 0); break;
    case DX_C_BLACKMAIL: out[n++] = DX_STEP(DX_S_COINS, player, 0, 0); break;
    case DX_C_EXPROPRIATION: out[n++] = DX_STEP(DX_S_DESTROY, player, DX_DESTROY_BLUE, 0); break;
    case DX_C_SWINDLE: out[n++] = DX_STEP(DX_S_DESTROY, player, DX_DESTROY_YELLOW, 0); break;
    case DX_C_OBSCURANTISM: out[n++] = DX_STEP(DX_S_LOCK, player, 0, 0); break;
    case DX_C_COUP: out[n++] = DX_STEP(DX_S_SHIELDS, player, 2, 0); break;
    case DX_C_PROPERTY_FRAUD: out[n++] = DX_STEP(DX_S_FRAUD, player, 0, 0); break;
    case DX_C_TREASON: out[n++] = DX_STEP(DX_S_TREASON, player, 0, 0); break;
    case DX_C_POLITICAL_MANEUVER:
        out[n++] = DX_STEP(DX_S_PLACE, player, 0, 0);
        out[n++] = DX_STEP(DX_S_EVICT, player, 0, 0);
        break;
    case DX_C_ESPIONAGE: out[n++] = DX_STEP(DX_S_ESPIONAGE, player, 0, 0); break;
    case DX_C_TURN_OF_EVENTS:
        out[n++] = DX_STEP(DX_S_DISCARD_ANY, player, 1, 0);
        out[n++] = DX_STEP(DX_S_DISCARD_ANY, player, 2, 0);
        break;
    case DX_C_EMBEZZLEMENT: out[n++] = DX_STEP(DX_S_COINS, player, 1, 0); break;
    case DX_C_FORECLOSURE: out[n++] = DX_STEP(DX_S_TAKE, player, 0, 0); break;
    case DX_C_COERCION: out[n++] = DX_STEP(DX_S_COERCION, player, 0, 0); break;
    case DX_C_INSIDER_INFLUENCE: out[n++] = DX_STEP(DX_S_INSIDER, player, 0, 0); break;
    case DX_C_SABOTAGE: out[n++] = DX_STEP(DX_S_SABOTAGE, player, 0, 0); break;
    default: break;
    }
    if (DX_CONSPIRACIES_WITH_MOVE >> name & 1) out[n++] = DX_STEP(DX_S_MOVE, player, 0, 0);
    return n;
}

/* --- hooks of the shared rules ------------------------------------------------------------ */
/* on_senator */
static void dx_on_senator(dx_state *s, int player, int card) {
    int kind = DX_SENATOR_KIND[card - DX_FIRST_SENATOR];
    if (kind < 3) {
        int blue = dc_pop_cards(s->p[player].cards & DX_BLUE);
        if (dx_in_force(s, player, DX_D_CIVIC_WEIGHT)) blue += 2;
        dx_push1(s, DX_STEP(DX_S_SENATE, player, kind, DX_SENATE_ACTIONS[blue]), 0);
    } else {
        dx_push1(s, DX_STEP(DX_S_CONSPIRATOR, player, 0, 0), 0);
        if (dx_in_force(s, player, DX_D_SWIFT_PLOTS)) s->extra = 1;
    }
}

/* tithes: `colour` is a DX_COLOUR_NAMES index, or -1 for a Wonder */
static void dx_tithes(dx_state *s, int colour) {
    static const int8_t TITHE_COLOUR[5] = {2, 3, 4, 5, -1}; /* blue, green, yellow, red; wonder */
    static const int8_t TITHE[5] = {DX_D_BLUE_TITHE, DX_D_GREEN_TITHE, DX_D_YELLOW_TITHE,
                                    DX_D_RED_TITHE, DX_D_WONDER_TITHE};
    for (int i = 0; i < 5; i++)
        if (TITHE_COLOUR[i] == colour)
            for (int p = 0; p < 2; p++)
                if (dx_in_force(s, p, TITHE[i])) dx_gain_coins(s, p, s->age);
}

/* military_token: its steps after the Decrees at the front of the queue */
static void dx_military_token(dx_state *s, int player, int large) {
    uint32_t steps[2];
    int n = 0;
    if (large) {
        steps[n++] = DX_STEP(DX_S_EVICT, player, 0, 0);
        steps[n++] = DX_STEP(DX_S_MOVE, player, 0, 0);
    } else {
        steps[n++] = DX_STEP(DX_S_PLACE, player, 0, 0);
    }
    int lead = 0;
    while (lead < s->n_pending && DX_STEP_KIND(s->pending[lead]) == DX_S_DECREE) lead++;
    memmove(s->pending + lead + n, s->pending + lead, (s->n_pending - lead) * sizeof s->pending[0]);
    memcpy(s->pending + lead, steps, n * sizeof steps[0]);
    s->n_pending = (uint8_t)(s->n_pending + n);
}

/* setup_decrees */
static void dx_setup_decrees(dx_state *s) {
    uint32_t steps[6];
    int n = 0;
    for (int c = 0; c < 6; c++) {
        s->n_decrees[c] = 1;
        s->decree[c][0] = -1;
        if (DX_DECREES_FACE_UP >> c & 1) steps[n++] = DX_STEP(DX_S_DECREE, c + 1, 0, 0);
    }
    dx_push(s, steps, n, 0);
    s->continuation = DX_CONT_RESUME | DX_SETUP_WONDERS << 8 | (uint32_t)s->to_move << 16;
    dx_resolve(s);
}

/* --- applying moves ------------------------------------------------------------------------ */
/* _apply_decree */
static void dx_apply_decree(dx_state *s, int chamber, int name) {
    int c = chamber - 1, i = 0;
    for (int k = 0; k < s->n_decrees[c]; k++)
        if (s->decree[c][k] < 0) i = k;
    s->decree[c][i] = (int8_t)name;
    dx_refresh_forces(s);
    int mark = (int)DX_STEP_B(s->step);
    int loser = DX_STEP_KIND(s->step) == DX_S_DECREE && mark >= 2 ? mark - 2 : -1;
    int owner = dx_controller(s, c);
    if (name == DX_D_STANDING_ARMY) {
        if (loser >= 0 && dx_move_pawn(s, 1 - loser, 1)) return;
        if (owner >= 0 && dx_move_pawn(s, owner, 1)) return;
    }
    dx_done(s);
}

/* _apply_back */
static void dx_apply_back(dx_state *s, int slot, int kind) {
    s->backs[slot] = (int8_t)kind;
    if (kind == DX_BACK_GUILD || kind == DX_BACK_TEMPLE) s->back_slots |= 1u << slot;
    int n = dx_slots(s);
    for (int x = 0; x < n; x++)
        if (s->backs[x] == DX_BACK_NONE) return;
    dx_next_layout_phase(s);
}

/* _more_senate_actions */
static void dx_more_senate_actions(dx_state *s) {
    uint32_t step = s->step;
    if (DX_STEP_KIND(step) == DX_S_SENATE && DX_STEP_C(step) > 1)
        dx_push1(s, DX_STEP(DX_S_SENATE, DX_STEP_A(step), DX_STEP_B(step), DX_STEP_C(step) - 1), 1);
}

static void dx_apply_place(dx_state *s, int chamber) {
    dx_more_senate_actions(s);
    dx_change_cubes(s, chamber - 1, s->to_move, +1);
    if (s->phase != DX_GAME_OVER) dx_done(s);
}

static void dx_apply_evict(dx_state *s, int chamber) {
    dx_change_cubes(s, chamber - 1, 1 - s->to_move, -1);
    dx_done(s); /* as senate.py: even after a win */
}

static void dx_apply_move_cube(dx_state *s, int source, int target) {
    int player = s->to_move;
    dx_more_senate_actions(s);
    dx_change_cubes(s, source - 1, player, -1);
    if (s->phase != DX_GAME_OVER) dx_change_cubes(s, target - 1, player, +1);
    if (s->phase != DX_GAME_OVER) dx_done(s);
}

static void dx_keep(dx_state *s, int player, const int8_t *names, int count) {
    dx_city *city = &s->p[player];
    for (int k = 0; k < count; k++) {
        int i = city->n_plots++;
        city->plot_name[i] = names ? names[k] : DX_UNKNOWN;
        city->plot_flags[i] = 0;
        city->plot_card[i] = -1;
    }
    s->drawn_plots_unseen = 0;
    s->n_drawn_plots = 0;
    s->drawn_plots[0] = s->drawn_plots[1] = 0;
    dx_done(s);
}

/* _apply_draw_plots: `mask` the Conspiracies drawn, 0 for the opponent's unseen draw */
static void dx_apply_draw_plots(dx_state *s, int mask) {
    int count = s->plot_size < 2 ? s->plot_size : 2;
    int taken_top = count < s->n_plot_top ? count : s->n_plot_top;
    memmove(s->plot_top, s->plot_top + taken_top, DX_MAX_PLOTS - taken_top);
    memmove(s->plot_top_known, s->plot_top_known + taken_top, DX_MAX_PLOTS - taken_top);
    memset(s->plot_top + DX_MAX_PLOTS - taken_top, 0, taken_top);
    memset(s->plot_top_known + DX_MAX_PLOTS - taken_top, 0, taken_top);
    s->n_plot_top = (uint8_t)(s->n_plot_top - taken_top);
    int middle = s->plot_size - taken_top - s->n_plot_top - s->n_plot_bottom;
    int rest = count - taken_top;
    int from_middle = rest < (middle > 0 ? middle : 0) ? rest : (middle > 0 ? middle : 0);
    int cut = rest - from_middle;
    if (cut) {
        memmove(s->plot_bottom, s->plot_bottom + cut, DX_MAX_PLOTS - cut);
        memmove(s->plot_bottom_known, s->plot_bottom_known + cut, DX_MAX_PLOTS - cut);
        memset(s->plot_bottom + DX_MAX_PLOTS - cut, 0, cut);
        memset(s->plot_bottom_known + DX_MAX_PLOTS - cut, 0, cut);
        s->n_plot_bottom = (uint8_t)(s->n_plot_bottom > cut ? s->n_plot_bottom - cut : 0);
    }
    s->plot_size = (uint8_t)(s->plot_size - count);
    if (mask == 0) {
        s->drawn_plots_unseen = 1;
        s->n_drawn_plots = 0;
    } else { /* sorted by name */
        int n = 0;
        for (int c = 0; c < DX_N_CONSPIRACIES; c++) {
            if (!(mask >> c & 1)) continue;
            int k = n++;
            while (k > 0 && DX_CONSPIRACY_RANK[s->drawn_plots[k - 1]] > DX_CONSPIRACY_RANK[c]) {
                s->drawn_plots[k] = s->drawn_plots[k - 1];
                k--;
            }
            s->drawn_plots[k] = (int8_t)c;
        }
        s->n_drawn_plots = (uint8_t)n;
    }
    int player = s->to_move;
    if (count == 1 || dx_has(s->p[player].tokens, DX_T_ORGANIZED_CRIME)) {
        int8_t names[2] = {s->drawn_plots[0], s->drawn_plots[1]};
        dx_keep(s, player, s->drawn_plots_unseen ? NULL : names, count);
        return;
    }
    s->phase = DX_KEEP_PLOT;
}

/* _apply_keep: low bits kept | other << 5 | where << 10 (31: None; where 0 top, 1 bottom) */
static void dx_apply_keep(dx_state *s, int code) {
    int kept = code & 31, other = code >> 5 & 31, bottom = code >> 10 & 1, player = s->to_move;
    int8_t name = (int8_t)(other == 31 ? DX_UNKNOWN : other);
    if (!bottom) {
        memmove(s->plot_top + 1, s->plot_top, DX_MAX_PLOTS - 1);
        memmove(s->plot_top_known + 1, s->plot_top_known, DX_MAX_PLOTS - 1);
        s->plot_top[0] = name;
        s->plot_top_known[0] = (uint8_t)(1 << player);
        s->n_plot_top++;
    } else {
        s->plot_bottom[s->n_plot_bottom] = name;
        s->plot_bottom_known[s->n_plot_bottom] = (uint8_t)(1 << player);
        s->n_plot_bottom++;
    }
    s->plot_size++;
    int8_t names[1] = {(int8_t)kept};
    dx_keep(s, player, kept == 31 ? NULL : names, 1);
}

/* _apply_prepare */
static void dx_apply_prepare(dx_state *s, int index, int card) {
    dx_city *city = &s->p[s->to_move];
    dx_take_from_pyramid(s, card);
    city->plot_flags[index - 1] = DX_PLOT_PREPARED | DX_PLOT_FRESH;
    city->plot_card[index - 1] = (int8_t)card;
    dx_finish_turn(s);
}

/* _apply_trigger */
static void dx_apply_trigger(dx_state *s, int index, int name) {
    int player = s->to_move;
    dx_city *city = &s->p[player];
    city->plot_name[index - 1] = (int8_t)name;
    city->plot_flags[index - 1] = (uint8_t)((city->plot_flags[index - 1] & DX_PLOT_PREPARED) |
                                            DX_PLOT_USED);
    uint32_t steps[4];
    int n = dx_conspiracy_steps(name, player, steps);
    if (s->phase == DX_CURIA) {
        dx_push(s, steps, n, 1);
        dx_done(s);
        return;
    }
    s->triggered = 1;
    dx_push(s, steps, n, 1);
    if (!s->continuation) s->continuation = DX_CONT_PLAY | (uint32_t)player << 16;
    dx_done(s);
}

/* _apply_lock */
static void dx_apply_lock(dx_state *s, int token) {
    int player = s->to_move;
    s->board &= (uint16_t)~(1u << token);
    s->locked |= (uint16_t)(1u << token);
    if (dx_has(s->p[1 - player].tokens, token)) {
        s->p[1 - player].tokens &= (uint16_t)~(1u << token);
        if (dx_recompute_science(s)) return;
    }
    dx_done(s);
}

/* _apply_free_build */
static void dx_apply_free_build(dx_state *s, int card) {
    int n = dx_slots(s);
    for (int slot = 0; slot < n; slot++)
        if (s->pyramid[slot] == card) {
            dx_remove_from_structure(s, slot);
            break;
        }
    s->removed &= ~DC_CARD_BIT(card);
    if (!s->removed_now_none && s->n_removed_now) {
        int k2 = 0;
        for (int k = 0; k < s->n_removed_now; k++)
            if (s->removed_now[k] != card) s->removed_now[k2++] = s->removed_now[k];
        for (int k = k2; k < 3; k++) s->removed_now[k] = 0;
        s->n_removed_now = (uint8_t)k2;
    }
    s->unseen &= ~DC_CARD_BIT(card);
    s->phase = DX_PLAY;
    if (dx_construct_card(s, s->to_move, card)) return;
    if (s->phase == DX_PLAY) dx_done(s);
}

/* _apply_treason_deal: low bits three 7-bit cards (127: none), bit 21: unseen (None) */
static void dx_apply_treason_deal(dx_state *s, int code) {
    if (code >> 21 & 1) {
        s->removed_now_none = 1;
        s->n_removed_now = 0;
    } else {
        s->removed_now_none = 0;
        int n = 0;
        for (int k = 0; k < 3; k++) {
            int c = code >> (7 * k) & 127;
            if (c != 127) s->removed_now[n++] = (int8_t)c;
        }
        s->n_removed_now = (uint8_t)n;
    }
    s->removed_by = s->to_move;
    s->phase = DX_TREASON;
}

/* _apply_discard_free */
static void dx_apply_discard_free(dx_state *s, int card) {
    dx_take_from_pyramid(s, card);
    s->discard |= DC_CARD_BIT(card);
    if ((s->expansions & DX_PANTHEON) && !dx_take_uncovered_tokens(s)) {
        s->step = 0;
        return;
    }
    dx_done(s);
}

/* _apply_swap (Coercion) */
static void dx_apply_swap(dx_state *s, int mine, int theirs) {
    int player = s->to_move;
    dx_city *city = &s->p[player], *other = &s->p[1 - player];
    city->cards = (city->cards & ~DC_CARD_BIT(mine)) | DC_CARD_BIT(theirs);
    other->cards = (other->cards & ~DC_CARD_BIT(theirs)) | DC_CARD_BIT(mine);
    dx_recount_city(city);
    dx_recount_city(other);
    for (int p = 0; p < 2; p++)
        if (s->p[p].snake == mine || s->p[p].snake == theirs) s->p[p].snake = -1;
    for (int p = 0; p < 2; p++) s->p[p].science = (uint8_t)dx_science_symbols(s, p);
    uint32_t steps[3];
    int n = 0;
    const int owners[2] = {player, 1 - player}, cards[2] = {theirs, mine};
    for (int i = 0; i < 2; i++) {
        int symbol = DX_CARDS_TABLE[cards[i]].science;
        if (symbol && dx_symbol_count(s, owners[i], symbol) >= 2)
            steps[n++] = DX_STEP(DX_S_PAIR, owners[i], 0, 0);
    }
    steps[n++] = DX_STEP(DX_S_SUPREMACY, player, 0, 0);
    dx_push(s, steps, n, 1);
    dx_done(s);
}

/* _apply_move_decree: low bits source | target << 3 (Chambers 1-6) */
static void dx_apply_move_decree(dx_state *s, int code) {
    int source = (code & 7) - 1, target = (code >> 3 & 7) - 1;
    int old_source = dx_controller(s, source), old_target = dx_controller(s, target);
    int moved = s->decree[source][0];
    for (int k = 0; k + 1 < s->n_decrees[source]; k++)
        s->decree[source][k] = s->decree[source][k + 1];
    s->decree[source][--s->n_decrees[source]] = 0;
    s->decree[target][s->n_decrees[target]++] = (int8_t)moved;
    dx_refresh_forces(s);
    if (old_source == old_target) {
        dx_done(s);
        return;
    }
    if (moved < 0) {
        dx_push1(s, DX_STEP(DX_S_DECREE, target + 1, old_source < 0 ? 1 : 2 + old_source, 0), 1);
    } else if (moved == DX_D_STANDING_ARMY) {
        if (old_source >= 0 && dx_move_pawn(s, 1 - old_source, 1)) return;
        if (old_target >= 0 && dx_move_pawn(s, old_target, 1)) return;
    }
    dx_done(s);
}

/* _apply_sabotage */
static void dx_apply_sabotage(dx_state *s, int w) {
    dx_city *victim = &s->p[1 - s->to_move];
    int card = victim->under[w];
    victim->built &= (uint16_t)~(1u << w);
    victim->under[w] = -1;
    dx_recount_city(victim);
    s->discard |= DC_CARD_BIT(card);
    dx_done(s);
}

static void dx_apply_agora(dx_state *s, int32_t move) {
    int a = DX_A(move), b = DX_B(move);
    switch (DX_KIND(move)) {
    case DX_K_DECREE_MOVE: dx_apply_decree(s, a, b); break;
    case DX_K_BACK_MOVE: dx_apply_back(s, a, b); break;
    case DX_K_DRAW_PLOTS_MOVE: dx_apply_draw_plots(s, DX_LOW(move)); break;
    case DX_K_KEEP: dx_apply_keep(s, DX_LOW(move)); break;
    case DX_K_PLACE_MOVE: dx_apply_place(s, a); break;
    case DX_K_EVICT_MOVE: dx_apply_evict(s, a); break;
    case DX_K_MOVE_CUBE_MOVE: dx_apply_move_cube(s, a, b); break;
    case DX_K_NO_MOVE:
    case DX_K_STOP:
    case DX_K_NO_TRIGGER:
    case DX_K_NO_DISCARD: dx_done(s); break;
    case DX_K_CONSPIRE:
        dx_push1(s, DX_STEP(DX_S_CONSPIRE, s->to_move, 0, 0), 1);
        dx_done(s);
        break;
    case DX_K_PREPARE: dx_apply_prepare(s, a, b); break;
    case DX_K_TRIGGER: dx_apply_trigger(s, a, b); break;
    case DX_K_LOCK: dx_apply_lock(s, a); break;
    case DX_K_FREE_BUILD: dx_apply_free_build(s, b); break;
    case DX_K_TREASON_DEAL_MOVE: dx_apply_treason_deal(s, DX_LOW(move)); break;
    case DX_K_DISCARD_FREE: dx_apply_discard_free(s, b); break;
    case DX_K_SWAP: dx_apply_swap(s, a, b); break;
    case DX_K_MOVE_DECREE: dx_apply_move_decree(s, DX_LOW(move)); break;
    case DX_K_SABOTAGE_MOVE: dx_apply_sabotage(s, a); break;
    default: break;
    }
}

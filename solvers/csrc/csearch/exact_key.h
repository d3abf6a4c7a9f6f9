/*
 * csearch/exact_key.h -- the table key of a position: the plain state hash in a depth-limited
 * search, and in an exact solve the hash of the position's future only (exact_key). Apart
 * because which positions may share an entry is a claim about the rules, checked on its own
 * (tests/test_csearch.py turns `abstract` off and compares), not a property of the table.
 */
/* Two positions whose futures are the same have the same exact value, even when their cities
 * hold different cards: from here on a city's cards matter only through what the state keeps
 * apart (economy, chains, science, coins) and through their number per colour and their points
 * (scores, guilds, cards that pay per colour, the discard's coins) -- except the guilds
 * themselves, the brown and grey cards while a wonder may still destroy one, and the discard
 * pile while The Mausoleum may still be built. Cards under wonders and which wonders were built
 * (beyond their number and points) never matter again. So an exact solve keys its table by the
 * state with those parts replaced by their counts and sums: lines that reach the same future by
 * different cards meet in the table. (Depth-limited searches evaluate the horizon from the
 * cards themselves, so they keep the plain key.) */
static uint16_t DESTROY_WONDERS, MAUSOLEUM_WONDERS;

static void exact_key_init(void) {
    for (int w = 0; w < DC_N_WONDERS; w++) {
        if (DC_WONDERS_TABLE[w].destroy) DESTROY_WONDERS |= (uint16_t)(1u << w);
        if (DC_WONDERS_TABLE[w].mausoleum) MAUSOLEUM_WONDERS |= (uint16_t)(1u << w);
    }
}

static uint64_t exact_key(const dc_state *st) {
    dc_state k = *st;
    uint16_t unbuilt = st->p[0].wonders | st->p[1].wonders;
    int destroy = (unbuilt & DESTROY_WONDERS) || st->phase == DC_DESTROY;
    int maus = (unbuilt & MAUSOLEUM_WONDERS) || st->phase == DC_MAUSOLEUM;
    dc_cards keep = DC_PURPLE | (destroy ? DC_BROWN | DC_GREY : 0);
    for (int p = 0; p < 2; p++) {
        const dc_player *o = &st->p[p];
        dc_player *q = &k.p[p];
        q->cards = o->cards & keep;
        q->under = 0;
        q->built = 0;
        q->pad_[0] = (uint8_t)dc_pop_cards(o->cards & DC_BROWN);
        q->pad_[1] = (uint8_t)dc_pop_cards(o->cards & DC_GREY);
        q->pad_[2] = (uint8_t)dc_pop_cards(o->cards & DC_BLUE);
        q->pad_[3] = (uint8_t)dc_pop_cards(o->cards & DC_GREEN);
        q->pad_[4] = (uint8_t)dc_pop_cards(o->cards & DC_YELLOW);
        q->pad_[5] = (uint8_t)dc_pop_cards(o->cards & DC_RED);
        q->pad_[6] = (uint8_t)dc_card_points(o->cards & DC_BLUE);
        q->pad_[7] = (uint8_t)dc_card_points(o->cards & DC_GREEN);
        q->pad_[8] = (uint8_t)dc_card_points(o->cards & DC_YELLOW);
        q->pad_[9] = (uint8_t)dc_pop32(o->built);
        q->pad_[10] = (uint8_t)WONDER_POINTS[o->built];
    }
    if (!maus) k.discard = 0;
    /* dc_state_hash's single multiply chain, in four independent lanes: the same mixing, a
     * quarter of the latency (this key is computed for every child of every exact node) */
    uint64_t h[4] = {0x243f6a8885a308d3ull, 0x13198a2e03707344ull, 0xa4093822299f31d0ull,
                     0x082efa98ec4e6c89ull};
    const unsigned char *bytes = (const unsigned char *)&k;
    _Static_assert(sizeof k % 32 == 0, "the key hashes whole 32-byte rows");
    for (size_t i = 0; i < sizeof k; i += 32) {
        for (int j = 0; j < 4; j++) {
            uint64_t w;
            memcpy(&w, bytes + i + 8 * j, 8);
            h[j] = (h[j] ^ w) * 0x9e3779b97f4a7c15ull;
            h[j] ^= h[j] >> 29;
        }
    }
    uint64_t out = h[0];
    for (int j = 1; j < 4; j++) {
        out = (out ^ h[j]) * 0x9e3779b97f4a7c15ull;
        out ^= out >> 32;
    }
    return out;
}

/* The table key of a position searched to `depth` (see exact_key). */
static inline uint64_t table_key(const Ctx *c, const dc_state *st, int depth) {
    return depth >= INF_DEPTH / 2 && c->abstract ? exact_key(st) : dc_state_hash(st);
}

/*
 * csearch/prices.h -- dc_card_price and dc_wonder_price through a per-thread cache. Apart because
 * two parts that know nothing of each other share it (the static bound and the last cards' move
 * generation), and it depends on the engine's pricing alone.
 */
/* Prices by (the buyer's economy, the other side's production, card or wonder): the static bound
 * and the last cards' moves price the same cards under the same economies node after node.
 * Direct-mapped, one per thread; a key is never 0, so a zeroed cache is empty. */
#define PRICE_CACHE_BITS 12
typedef struct {
    uint64_t key[1 << PRICE_CACHE_BITS];
    int16_t price[1 << PRICE_CACHE_BITS];
} price_cache;

static inline int cached_trade_cost(price_cache *pc, uint32_t econ, uint32_t opp_econ, int item,
                                    const uint8_t need[5], int waivable) {
    uint64_t key = (uint64_t)econ | (uint64_t)(opp_econ & 0x7FFF) << 26 | (uint64_t)item << 41 |
                   1ull << 50;
    uint64_t h = (key * 0x9E3779B97F4A7C15ull) >> (64 - PRICE_CACHE_BITS);
    if (pc->key[h] == key) return pc->price[h];
    int v = dc_trade_cost(econ, opp_econ, need, waivable);
    pc->key[h] = key;
    pc->price[h] = (int16_t)v;
    return v;
}

/* dc_card_price and dc_wonder_price through the cache (the trading part is a function of the key:
 * Masonry and Architecture are bits of the economy). */
static inline int card_price(price_cache *pc, const dc_state *s, int p, int c) {
    const dc_player *me = &s->p[p];
    const dc_card_spec *spec = &DC_CARDS_TABLE[c];
    if (me->chains & spec->chain_from) return 0;
    if (spec->needs_nothing) return spec->coin_cost;
    int waive = (me->econ & DC_MASONRY_BIT) && dc_has_card(DC_BLUE, c) ? 2 : 0;
    return spec->coin_cost + cached_trade_cost(pc, me->econ, s->p[1 - p].econ, c, spec->need, waive);
}

static inline int wonder_price(price_cache *pc, const dc_state *s, int p, int w) {
    const dc_wonder_spec *spec = &DC_WONDERS_TABLE[w];
    if (spec->needs_nothing) return 0;
    uint32_t econ = s->p[p].econ;
    return cached_trade_cost(pc, econ, s->p[1 - p].econ, 128 + w, spec->need,
                             econ & DC_ARCHITECTURE_BIT ? 2 : 0);
}

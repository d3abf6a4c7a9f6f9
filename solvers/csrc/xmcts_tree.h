/*
 * xmcts_tree.h -- the expansion MCTS's tree: one array of nodes, bounded in size (xmcts_module.c).
 *
 * Open loop: a node stands for a sequence of decisions from the root, its children are the
 * decisions met below it (each keyed by its move), and chance outcomes are drawn afresh on every
 * descent, so a child may be legal in some descents and not in others: `avail` counts the
 * descents in which it was, and stands in for the parent's visits in the selection formula, as
 * in information-set MCTS. A node's value is summed from the side of the player who made its
 * move. The array never grows past the capacity fixed at the start (the memory bound); a full
 * tree stops expanding and plays out from where it stands.
 */
#ifndef SOLVERS_XMCTS_TREE_H
#define SOLVERS_XMCTS_TREE_H

#include <stdlib.h>

typedef struct xt_node {
    int32_t move;    /* the decision that leads here */
    int32_t first;   /* first child, -1 if none */
    int32_t next;    /* next sibling, -1 if none */
    int8_t player;   /* who made `move` */
    uint32_t visits;
    uint32_t avail;  /* descents in which `move` was legal */
    double value;    /* sum of values for `player` */
} xt_node;

typedef struct xt_tree {
    xt_node *nodes;
    int32_t size, capacity;
} xt_tree;

/* A tree of one root node; 0 if the memory is not there. */
static int xt_init(xt_tree *t, int32_t capacity) {
    t->nodes = malloc((size_t)capacity * sizeof *t->nodes);
    if (!t->nodes) return 0;
    t->capacity = capacity;
    t->size = 1;
    t->nodes[0] = (xt_node){-1, -1, -1, -1, 0, 0, 0.0};
    return 1;
}

static void xt_free(xt_tree *t) { free(t->nodes); }

/* A new child of `parent`, or -1 when the tree is full. */
static int32_t xt_add(xt_tree *t, int32_t parent, int32_t move, int player) {
    if (t->size == t->capacity) return -1;
    int32_t id = t->size++;
    t->nodes[id] = (xt_node){move, -1, t->nodes[parent].first, (int8_t)player, 0, 0, 0.0};
    t->nodes[parent].first = id;
    return id;
}

static int32_t xt_child(const xt_tree *t, int32_t parent, int32_t move) {
    for (int32_t c = t->nodes[parent].first; c >= 0; c = t->nodes[c].next)
        if (t->nodes[c].move == move) return c;
    return -1;
}

/* The mean value of node `id` from `player`'s side, or `otherwise` before its first visit. */
static inline double xt_mean(const xt_tree *t, int32_t id, int player, double otherwise) {
    const xt_node *n = &t->nodes[id];
    if (!n->visits) return otherwise;
    double q = n->value / n->visits;
    return n->player == player ? q : 1.0 - q;
}

#endif /* SOLVERS_XMCTS_TREE_H */

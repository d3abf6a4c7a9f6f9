"""The game controller of ``duel play`` on its own: no terminal, no printing."""

from __future__ import annotations

import pytest

from duel import CARDS, Kind, Move
from duel.app.control.game import Dealer, GameController
from duel.record import GameRecord, RecordError


def controller(kinds=("human", "random"), seed: int | None = 3, tmp_path=None) -> GameController:
    game = GameController(list(kinds), Dealer(seed=seed), think=0.1)
    if tmp_path is not None:
        game.autosave_path = tmp_path / "duel-autosave.json"
    game.set_players()
    return game


def run_to_human(game: GameController) -> list[str]:
    said = []
    while (actor := game.next_actor()) in ("chance", "ai"):
        said += game.deal_pending() if actor == "chance" else [game.play(game.ai_choose())]
    return said


def test_two_ais_play_a_whole_game_and_it_replays():
    game = controller(("random", "random"), seed=4)
    said = run_to_human(game)
    assert game.next_actor() == "over" and game.state.is_terminal()
    assert said[0].startswith("Progress tokens on the board") and any(
        s.startswith("A: pick ") for s in said
    )
    assert game.record().final_state() == game.state


def test_a_seeded_deal_is_the_same_every_time():
    one, two = controller(seed=9), controller(seed=9)
    assert one.deal_pending() == two.deal_pending()
    assert one.moves == two.moves


def test_undo_returns_the_decisions_taken_back():
    game = controller(seed=5)
    run_to_human(game)
    pick = Move.parse(f"pick {game.state.legal_moves()[0].__str__().split(' ', 1)[1]}")
    game.play(pick)
    run_to_human(game)
    before = len(game.moves)
    undone = game.undo()
    assert not isinstance(undone, str) and undone.moves[0] == pick and len(game.moves) < before
    assert game.next_actor() == "human"
    assert game.undo() == "Nothing to undo."


def test_fair_undo_is_refused_after_a_card_was_dealt():
    game = controller(("human", "human"), seed=None)
    while game.state.phase != "play" or game.state.is_chance():
        if game.state.is_chance():
            game.deal_pending()
        else:
            game.play(game.state.legal_moves()[0])
    while True:
        discards = [m for m in game.state.legal_moves() if m.kind is Kind.DISCARD]
        uncovering = [m for m in discards if game.state.apply(m).is_chance()]
        discard = (uncovering or discards)[0]
        game.play(discard)
        if uncovering:
            break
    game.deal_pending()
    assert game.moves[-1].kind is Kind.REVEAL_CARD
    refused = game.undo()
    assert isinstance(refused, str) and "fair game" in refused
    assert game.moves[-2] == discard


def test_save_and_load_round_trip(tmp_path):
    game = controller(seed=6, tmp_path=tmp_path)
    run_to_human(game)
    game.play(game.state.legal_moves()[0])
    path = tmp_path / "g.json"
    game.save(path)
    assert not game.dirty and game.save_path == path
    other = controller(("human", "human"), seed=None)
    assert other.load(path) is None
    assert tuple(other.moves) == GameRecord.load(path).moves and other.kinds == ["human", "random"]
    assert other.dealer.seed == 6 and "Loaded" in other.loaded_text(path)
    (tmp_path / "bad.json").write_text("{")
    with pytest.raises(RecordError):
        other.load(tmp_path / "bad.json")


def test_autosave_goes_to_the_first_place_that_works(tmp_path):
    game = controller(seed=6, tmp_path=tmp_path)
    assert game.autosave() == (None, [])  # nothing played yet
    game.deal_pending()
    blocked = tmp_path / "file"
    blocked.write_text("x")
    place, failures = game.autosave([blocked / "a.json", tmp_path / "b.json"])
    assert place == tmp_path / "b.json" and len(failures) == 1 and not game.dirty


def test_card_actions_and_hint():
    game = controller(seed=2)
    run_to_human(game)
    while game.state.phase != "play":
        game.play(game.state.legal_moves()[0])
        run_to_human(game)
    card = game.state.legal_moves()[0].card
    actions = game.card_actions(card)
    assert actions[0][0].startswith("build (") and actions[1][0].startswith("discard (+")
    assert [m.kind for _, m in actions[:2]] == [Kind.BUILD, Kind.DISCARD]
    hint = game.hint(nodes=500)
    assert hint.player == game.state.to_move and 1 <= len(hint.moves) <= 3
    assert all(m.value is None or 0.0 <= m.value <= 1.0 for m in hint.moves)
    assert all("%" in m.value_text or m.value_text == "not searched" for m in hint.moves)
    chance = game.win_chance(nodes=300)
    assert chance is not None and 0.0 <= chance <= 1.0


def test_history_lists_every_move_from_the_start_and_hides_an_ai_great_library_draw():
    game = controller(("random", "random"), seed=4)
    run_to_human(game)
    lines = game.history()
    numbered = [line.split(". ", 1)[0].strip() for line in lines if ". " in line[:10]]
    covered = []
    for number in numbered:  # "12" or "20-31": together they cover every move, in order
        first, _, last = number.partition("-")
        covered += range(int(first), int(last or first) + 1)
    assert covered == list(range(1, len(game.moves) + 1))
    headings = [line for line in lines if not line.startswith(" ")]
    assert headings[:2] == ["Setup", "Wonder draft"] and "Age III" in headings
    assert all("draw " not in line for line in lines)
    assert any("Age I is dealt; face up:" in line for line in lines)


def test_undo_names_who_played_what_it_took_back():
    game = controller(("human", "random"), seed=5)
    run_to_human(game)
    pick = game.state.legal_moves()[0]
    game.play(pick)
    run_to_human(game)
    undone = game.undo()
    assert not isinstance(undone, str)
    assert undone.text.startswith(f"Took back: A {pick}, B pick ")
    whos = [who for who, _ in undone.decisions]
    assert whos[0] == "A" and set(whos[1:]) == {"B"}


def test_a_number_typed_on_an_older_board_is_checked_against_it():
    game = controller(("human", "human"), seed=3)
    while game.state.phase != "play" or game.state.is_chance():
        if game.state.is_chance():
            game.deal_pending()
        else:
            game.play(game.state.legal_moves()[0])
    shown = game.numbering()
    assert game.stale_number(1, shown) is None  # the same board
    taken = shown[0]
    game.play(Move.discard(taken))
    game.deal_pending()
    now = game.numbering()
    message = game.stale_number(1, shown)
    if now[0] != taken:
        assert message is not None and "changed since it was shown" in message
        assert CARDS[now[0]].name in message and CARDS[taken].name in message
        assert "no longer there" in message
    # a card still on the board under another number is named with its new number
    for n, card in enumerate(shown, 1):
        if card in now and now.index(card) != n - 1:
            message = game.stale_number(n, shown)
            assert message is not None and f"now number {now.index(card) + 1}" in message
    # the same card under the same number is no question
    for n, card in enumerate(shown, 1):
        if n <= len(now) and now[n - 1] == card:
            assert game.stale_number(n, shown) is None


def test_wording_of_prices_and_hint_lines():
    """Issue #24 item 8: "(1c, you have 0)" said "cannot afford" as every other line does;
    "needs printed cost 1 coins"; "then then chance" in a hint."""
    from duel import IllegalMoveError
    from duel.app.control.game import Hint, HintLine
    from tests.tables import make_state

    state = make_state(age=1, accessible=["Logging Camp"], A={"coins": 0})
    game = controller()
    game.states = [state]
    card = Move.parse("build Logging Camp").card
    assert game.card_actions(card)[0][0] == "build (1c, cannot afford)"
    with pytest.raises(IllegalMoveError) as error:
        state.apply(Move.parse("build Logging Camp"))
    assert str(error.value).endswith(
        "Logging Camp needs 1 coin printed on the card (total 1), you have 0"
    )
    stop = "then chance (a face-down card or a draw): the line stops here"
    discard = Move.parse("discard Logging Camp")
    hint = Hint(0, (HintLine(discard, 0.4, stop, "40.0% estimate"),), False)
    assert game.hint_lines(hint)[1:] == ["1. discard Logging Camp: 40.0% estimate", "   " + stop]
    hint = Hint(0, (HintLine(discard, 0.4, "B pick 3", "40.0%"),), False)
    assert game.hint_lines(hint)[2] == "   then B pick 3"

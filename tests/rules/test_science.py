"""Scientific symbols: pairs give a progress token, six different symbols win (Law counts)."""

from duel import TOKENS
from tests.tables import after, make_state


def test_a_pair_lets_the_player_choose_a_board_token():
    state = make_state(age=2, accessible=["Laboratory"], A={"coins": 20, "city": ["Workshop"]})
    state = after(state, "build Laboratory")
    assert state.phase == "choose_token" and state.to_move == 0
    assert sorted(str(m) for m in state.legal_moves()) == sorted(
        f"token {name}" for name in ("Agriculture", "Law", "Masonry", "Philosophy", "Theology")
    )
    state = after(state, "token Agriculture")
    assert "Agriculture" not in state.board_tokens and state.tokens(0) == [0]
    assert state.to_move == 1 and state.coins(0) == 20 - 6 + 6


def test_a_pair_with_an_empty_board_gives_nothing():
    state = make_state(
        age=2, accessible=["Laboratory"], A={"coins": 20, "city": ["Workshop"]}, board=[]
    )
    state = after(state, "build Laboratory")
    assert state.phase != "choose_token" and state.to_move == 1


def test_law_never_forms_a_pair():
    state = make_state(
        age=1,
        accessible=["Workshop"],
        A={"coins": 20, "progress_tokens": ["Law"]},
        board=["Agriculture"],
    )
    state = after(state, "build Workshop")
    assert state.phase == "play" and state.to_move == 1
    assert state.science(0) == ["pendulum", "law"]


def test_six_different_card_symbols_win_at_once():
    state = make_state(
        age=3,
        accessible=["Academy"],
        A={
            "coins": 30,
            "city": ["Workshop", "Apothecary", "Scriptorium", "Pharmacist", "University"],
        },
    )
    state = after(state, "build Academy")
    assert state.is_terminal() and state.winner == 0 and state.victory == "science"


def test_law_counts_as_one_of_the_six():
    state = make_state(
        age=3,
        accessible=["Academy"],
        A={
            "coins": 30,
            "city": ["Workshop", "Apothecary", "Scriptorium", "Pharmacist"],
            "progress_tokens": ["Law"],
        },
        board=["Agriculture"],
    )
    state = after(state, "build Academy")
    assert state.victory == "science" and state.winner == 0


def test_law_from_a_pair_can_complete_science_supremacy():
    state = make_state(
        age=3,
        accessible=["Observatory"],
        A={
            "coins": 30,
            "city": ["Workshop", "Apothecary", "Scriptorium", "Pharmacist", "University"],
        },
        board=["Law", "Agriculture"],
    )
    state = after(state, "build Observatory")  # globe pair: 5 symbols, choose a token
    assert state.phase == "choose_token"
    state = after(state, "token Law")
    assert state.victory == "science" and state.winner == 0
    assert TOKENS[3].name == "Law"

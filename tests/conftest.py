"""Session-wide test settings."""

import os
import tempfile

import pytest
from hypothesis import Phase, settings

# hypothesis: in CI (CI=true, as .ci/run and the common CI services set it) every run draws the
# same examples (derandomized: each test's seed is fixed by its name), so a failure there is a
# failure on a developer's machine too, and no example database is kept between runs. A failure
# prints the blob that reproduces it (@reproduce_failure) everywhere. HYPOTHESIS_PROFILE=dev
# gets the random seeds back in CI; HYPOTHESIS_PROFILE=ci derandomizes a local run.
settings.register_profile(
    "ci", derandomize=True, database=None, print_blob=True, phases=tuple(Phase)
)
settings.register_profile("dev", print_blob=True)
HYPOTHESIS_PROFILE = os.environ.get(
    "HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI", "").lower() == "true" else "dev"
)
settings.load_profile(HYPOTHESIS_PROFILE)

# Programs started by the tests save interrupted games to the user data folder: keep those
# files out of the real home directory (tests that check the file set their own folder).
os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="wonders-duel-test-data-")
# The programs read their language from the locale (issue 26): the tests expect English unless
# they choose a language, whatever the machine's locale.
os.environ["DUEL_LANG"] = "en"
os.environ.pop("DUEL_NAMES", None)
# pytest-xdist's workers set COLUMNS=80 and LINES=24 for their own output; a program started on
# a pty by a test would take them over the pty's size (and draw at 80x24 what the test expects
# at its own size).
os.environ.pop("COLUMNS", None)
os.environ.pop("LINES", None)


@pytest.fixture(autouse=True)
def _english_after_each_test():
    """A test that switches the language (directly or through ``--lang``) leaves English."""
    yield
    from duel.app.i18n import set_language

    set_language("en")


def pytest_report_header(config: pytest.Config) -> str:
    seed = config.getoption("hypothesis_seed", None)
    how = (
        "derandomized (each test's seed fixed by its name)"
        if settings.default.derandomize
        else f"seed {seed}"
        if seed is not None
        else "random seeds (a failure prints its reproduce_failure blob)"
    )
    return f"hypothesis profile {HYPOTHESIS_PROFILE}: {how}"


#: The longest tests (the prefix of their node ids: each parametrized case counts alone) and
#: their seconds on one of CI's two workers, for ``longest_first``: measured by --durations
#: under load on 2026-12-02 and divided by that run's slowdown (3.9, its wall time against the
#: quiet CI run's). A wrong figure only costs time; a test missing here starts in its turn.
LONGEST: dict[str, float] = {
    "tests/test_app.py::test_a_whole_game_against_the_ai_by_keys_and_clicks": 21,
    "tests/test_app_small.py::test_the_draft_and_age_one_at_80x24_by_keys_alone": 21,
    "tests/test_app.py::test_a_number_key_pressed_just_after_the_numbers_changed_asks_again": 25,
    "tests/test_ccore.py::test_differential_random_games": 4,
    "tests/test_app.py::test_the_palette_colours_the_cards_of_the_app": 16,
    "tests/test_csearch.py::test_a_fourteen_card_benchmark_endgame_has_its_true_value": 12,
    "tests/test_batch.py::test_kill_9_then_the_same_command_resumes": 11,
    "tests/test_batch.py::test_ray_gives_the_same_results_as_the_local_pool": 10,
    "tests/test_app.py::test_fair_undo_is_refused_in_the_app": 10,
    "tests/test_app.py::test_save_load_undo_and_hint": 9,
    "tests/test_app.py::test_every_special_decision_is_its_own_dialog": 8,
    "tests/test_app_small.py::test_the_end_of_age_three_at_80x24_by_keys_then_the_review": 10,
    "tests/expansions/test_xscreen.py::test_a_whole_game_by_the_list_and_by_typing": 7,
    "tests/test_fuzz_terminal.py::test_random_keys_in_the_app_then_a_signal_keep_the_game": 7,
    "tests/test_app_values.py::test_graph_is_the_hint_engines_value_at_decisions_and_reveals": 7,
    "tests/test_app.py::test_manual_chance_dialogs_deal_what_the_user_chose": 6,
    "tests/test_app_layout.py::test_the_chance_graph_is_a_sparkline": 6,
    "tests/test_hint_exact.py::test_the_default_hint_shows_the_exact_value_of_a_12_card_endgame": 6,
    "tests/test_value.py::test_shipped_value_is_calibrated_and_beats_the_hand_made_evaluation": 5,
    "tests/test_search_memory.py::test_peak_memory_stays_under_a_small_budget": 5,
    "tests/test_app_review.py::test_review_after_a_game_in_the_app_and_back": 5,
    "tests/test_app_review_workers.py::test_review_after_a_game_opens_with_default_workers": 4,
    "tests/test_hint_exact.py::test_growing_budgets_go_on_from_the_table_the_last_call_filled": 4,
    "tests/test_app_analysis.py::test_live_analysis_starts_deepens_and_stops_at_a_move": 4,
    "tests/test_app_table.py::test_the_last_move_has_a_line_of_its_own": 4,
}


#: The same on the pure-Python path (DUEL_PURE=1; measured there the same way, slowdown 3): its
#: longest tests are the Python searches', not the full-screen app's.
LONGEST_PURE: dict[str, float] = {
    "tests/test_analyze_readable.py::test_a_named_move_is_explained_and_json_carries": 17,
    "tests/test_hint.py::test_hidden_cards_do_not_change_the_hint": 17,
    "tests/test_search_memory.py::test_peak_memory_stays_under_a_small_budget": 11,
    "tests/test_analyze_readable.py::test_best_move_explained_reveals_reply_and_where": 8,
    "tests/test_hint.py::test_the_pipeline_generates_and_fits": 6,
    "tests/test_value.py::test_shipped_value_is_calibrated_and_beats_the_hand_made": 5,
    "tests/test_endgame_report.py::test_the_line_ends_the_game_and_says_how": 5,
    "tests/test_value.py::test_pipeline_trains_a_tiny_model": 4,
    "tests/test_value.py::test_a_fit_follows_its_target": 4,
    "tests/test_fair_play.py::test_a_hint_still_thinking_at_the_hand_over_is_never_shown": 4,
}


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto`` runs one worker more than the cores: much of the suite waits (programs in a
    pty, servers, subprocesses), and on the 2-core machine a third worker took the README's
    command from 373 s to 320 s, all passing (a fourth gained 14 s more; one at a time, idle
    machine, 2026-12-02)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return (cores or 1) + 1


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """A test module's own fixtures of module or session scope (a network game played once for
    several tests, a review computed once) are built once per worker that runs one of their
    tests: the tests that use one run on one worker (pyproject's ``--dist loadgroup``), so that
    ``-n auto`` does not build them twice; every other test is spread as before."""
    for item in items:
        info = getattr(item, "_fixtureinfo", None)
        module = getattr(item, "module", None)
        if info is None or module is None:
            continue
        shared = any(
            definitions[-1].scope != "function"
            and getattr(definitions[-1].func, "__module__", None) == module.__name__
            for name in info.names_closure
            if (definitions := info.name2fixturedefs.get(name))
        )
        if shared:
            item.add_marker(pytest.mark.xdist_group(module.__name__))
    for item in items:
        if item.nodeid.startswith(SAME_ON_BOTH_PATHS):
            item.add_marker(pytest.mark.same_on_both_paths)
        elif item.nodeid.startswith(NOT_ABOUT_THE_PATH) and not item.nodeid.startswith(
            CHOOSE_THE_PATH
        ):
            item.add_marker(pytest.mark.not_about_the_path)
    longest_first(items)


def longest_first(items: list[pytest.Item]) -> None:
    """Start the longest tests first: xdist hands the tests (a group as one) to whichever worker
    is free in this order (pyproject's ``--no-loadscope-reorder``), so that a long test started
    last does not keep one worker busy while the other waits. The rest keep their order."""
    from duel.core import AVAILABLE

    longest = LONGEST if AVAILABLE else LONGEST_PURE
    weight: dict[str, float] = {}
    scopes = []
    for item in items:
        groups = sorted(
            str(m.args[0] if m.args else m.kwargs.get("name", "default"))
            for m in item.iter_markers("xdist_group")
        )
        scope = f"@{'_'.join(groups)}" if groups else item.nodeid
        seconds = next((s for prefix, s in longest.items() if item.nodeid.startswith(prefix)), 0)
        weight[scope] = weight.get(scope, 0.0) + seconds
        scopes.append(scope)
    order = {id(item): -weight[scope] for item, scope in zip(items, scopes, strict=True)}
    items.sort(key=lambda item: order[id(item)])


#: Tests that run the same code on the compiled path and on the pure-Python one (DUEL_PURE=1):
#: none of them reaches the compiled core, the compiled searches or a solver that chooses
#: between them (duel.core, duel.xcore, solvers/search, hint, cmcts_player, x*), so CI runs
#: them once, on the compiled path (marker ``same_on_both_paths``; .ci/run's pure run leaves
#: them out). The base game (wonders/) has no compiled twin at all; the data files, the package
#: layout, the catalogs, the notation, the positions' files and the text drawn from a state
#: are read and written by Python alone on either path.
SAME_ON_BOTH_PATHS = (
    "tests/base/",
    "tests/test_coin_log.py",
    "tests/test_data.py",
    "tests/test_expansion_data.py",
    "tests/test_i18n.py",
    "tests/test_layers.py",
    "tests/test_notation.py",
    "tests/test_payment.py",
    "tests/test_payment_model.py",
    "tests/test_position.py",
    "tests/test_position_keys.py",
    "tests/test_position_reachable.py",
    "tests/test_render.py",
    "tests/test_render_words.py",
    # Checked by importing each on the pure path: none of the modules above is imported in the
    # tests' process (the servers run there); their subprocesses only print help or replay.
    "tests/test_cli_common.py",
    "tests/test_fuzz_loaders.py",
    "tests/test_golden.py",
    "tests/test_net_clock.py",
    "tests/test_net_hostile.py",
    "tests/test_replay.py",
)

#: Tests whose subject has no compiled twin (the batch layer, the network game, ``duel play`` in
#: a pty, the line mode's input, the command line) but whose games reach one through an AI
#: player or a search (marker ``not_about_the_path``; .ci/run's pure run leaves them out too):
#: the pure fallback of those players and searches is what the searches', players' and hints'
#: own tests check on the pure path, and the machinery around them is the same Python on both
#: paths. 281 of the pure run's 986 s of test durations (measured under load, 2026-12-03).
NOT_ABOUT_THE_PATH = (
    "tests/test_batch.py",
    "tests/test_cli.py",
    "tests/test_fuzz_input.py",
    "tests/test_net.py",
    "tests/test_tui.py",
)

#: Among those, the tests that check which player the program chooses, which depends on the
#: path (cmcts where it is built): these stay in the pure run.
CHOOSE_THE_PATH = (
    "tests/test_cli.py::test_duel_play_defaults_to_the_strongest_ai_and_says_so",
    "tests/test_net.py::test_an_ai_seat_plays_on_the_server_from_its_own_view",
    "tests/test_net.py::test_the_strongest_player_for_an_ai_seat",
)

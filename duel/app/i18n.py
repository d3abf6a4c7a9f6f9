"""The programs' languages: English, 简体中文 (zh-Hans), 繁體中文 (zh-Hant) and 日本語 (ja).

* **Choice**: ``--lang`` on ``duel`` and ``wonders``, else ``$DUEL_LANG``, else the locale as
  gettext reads it (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``): ``zh_CN``/``zh_SG`` are
  zh-Hans, ``zh_TW``/``zh_HK``/``zh_MO`` zh-Hant, ``ja_JP`` ja; anything else is English.
* **Messages**: one gettext catalog per language, ``duel/app/locale/<lang>.po`` (the template
  is ``duel.pot``), compiled to ``<lang>.mo`` by ``tools/i18n_catalog.py`` (babel, a
  development dependency). The .mo files ship as package data and are read here with the
  standard library's ``gettext`` (no run-time dependency). The English text is the message id,
  so English output is the source text itself. ``tr("Age {n}", n=2)`` translates then formats.
* **Names** of cards, wonders and progress tokens: ``data/duel/names_i18n.json`` (community usage
  with a confidence per cell, see docs/i18n.md). :func:`display_name` shows a community name
  only where its confidence is ``official`` or ``widely-used`` and no other component of the
  same kind shares it; otherwise the English name. Japanese shows the English names by default,
  as the Japanese edition prints them (``--names community`` shows the community names).
* **Width**: :func:`display_width` counts CJK characters as two columns; :func:`ljust`,
  :func:`rjust`, :func:`center` and :func:`clip` pad and cut by display width.

>>> set_language("zh-Hans")
'zh-Hans'
>>> display_name("card", "Lumber Yard"), display_name("card", "Logging Camp")
('伐木场', '伐木营地')
>>> display_name("card", "Stone Pit")  # the only source is one fan project: English
'Stone Pit'
>>> display_width("伐木场"), ljust("伐木场", 8) + "|"
(6, '伐木场  |')
>>> set_language("en")
'en'
"""

from __future__ import annotations

import gettext
import os
import re
import string
from collections.abc import Callable, Mapping
from functools import cache
from importlib import resources

from wcwidth import wcswidth, wcwidth

from duel import data
from duel.reason import Reason, reason_of

#: The languages, by their BCP 47 tags (the ``--lang`` values).
LANGUAGES = ("en", "zh-Hans", "zh-Hant", "ja")
LANGUAGE_NAMES = {"en": "English", "zh-Hans": "简体中文", "zh-Hant": "繁體中文", "ja": "日本語"}
LANG_ENV = "DUEL_LANG"
NAMES_ENV = "DUEL_NAMES"
#: How component names are shown: ``english`` always; ``community`` the community name where
#: its confidence is official or widely-used, else English; ``all`` any community name found.
NAME_MODES = ("english", "community", "all")
SHOWN_CONFIDENCE = frozenset({"official", "widely-used"})
KINDS = ("card", "wonder", "token")

_state: dict[str, str | None] = {"lang": "en", "names": None}


# --- choosing the language ----------------------------------------------------------------------
def normalise(tag: str | None) -> str | None:
    """The language a locale name or tag designates, or None.

    >>> [normalise(x) for x in ("zh_CN.UTF-8", "zh_TW", "zh-hant", "ja_JP.eucJP", "C", "fr_FR")]
    ['zh-Hans', 'zh-Hant', 'zh-Hant', 'ja', 'en', None]
    """
    if not tag:
        return None
    key = re.split(r"[.@]", tag.strip())[0].replace("-", "_").lower()
    if key in ("c", "posix") or key == "en" or key.startswith("en_"):
        return "en"
    if key == "ja" or key.startswith("ja_"):
        return "ja"
    if key == "zh" or key.startswith("zh_"):
        parts = set(key.split("_")[1:])
        if parts & {"hant", "tw", "hk", "mo"}:
            return "zh-Hant"
        return "zh-Hans"  # zh, zh_CN, zh_SG, zh_Hans
    return None


def language_from_env(environ: Mapping[str, str] | None = None) -> str:
    """The language the environment asks for: ``$DUEL_LANG``, then as gettext does
    (``LANGUAGE`` as a colon-separated list, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``: the first
    one set decides); English where nothing matches.

    >>> language_from_env({"LANG": "zh_TW.UTF-8"}), language_from_env({"LC_ALL": "de_DE"})
    ('zh-Hant', 'en')
    >>> language_from_env({"LANGUAGE": "fr:ja", "LANG": "en_US.UTF-8"})
    'ja'
    """
    env = os.environ if environ is None else environ
    own = normalise(env.get(LANG_ENV))
    if own:
        return own
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(variable, "")
        if not value:
            continue
        if variable == "LANGUAGE":
            for item in value.split(":"):
                found = normalise(item)
                if found:
                    return found
            continue
        return normalise(value) or "en"
    return "en"


def set_language(lang: str | None = None, names: str | None = None) -> str:
    """Use ``lang`` (a tag or locale name; None reads the environment) and the name mode
    ``names`` (None: ``$DUEL_NAMES``, else the language's default). ValueError for an unknown
    language or mode."""
    chosen = language_from_env() if lang is None else normalise(lang)
    if chosen is None:
        raise ValueError(f"unknown language {lang!r}: expected one of {', '.join(LANGUAGES)}")
    mode = names if names is not None else (os.environ.get(NAMES_ENV) or None)
    if mode is not None:
        mode = mode.strip().lower()
        if mode not in NAME_MODES:
            raise ValueError(f"unknown name mode {mode!r}: expected one of {', '.join(NAME_MODES)}")
    _state["lang"], _state["names"] = chosen, mode
    return chosen


def language() -> str:
    """The language in use."""
    return _state["lang"] or "en"


def name_mode(lang: str | None = None) -> str:
    """How component names are shown in ``lang``: the chosen mode, else ``english`` in English
    and Japanese (the Japanese edition prints English names), ``community`` in Chinese."""
    lang = lang or language()
    if lang == "en":
        return "english"
    return _state["names"] or ("english" if lang == "ja" else "community")


def argv_language(argv: list[str]) -> tuple[str | None, str | None]:
    """``--lang X`` / ``--lang=X`` and ``--names X`` found in a command line (read before the
    commands are built, so that ``--help`` is in the chosen language)."""
    found: dict[str, str | None] = {"--lang": None, "--names": None}
    for i, arg in enumerate(argv):
        for option in found:
            if arg == option and i + 1 < len(argv):
                found[option] = argv[i + 1]
            elif arg.startswith(option + "="):
                found[option] = arg.split("=", 1)[1]
    return found["--lang"], found["--names"]


# --- the message catalogs -----------------------------------------------------------------------
def mo_path(lang: str):
    """The compiled catalog of ``lang`` (package data, next to its .po source)."""
    return resources.files("duel.app").joinpath("locale", f"{lang}.mo")


@cache
def translations(lang: str) -> gettext.NullTranslations:
    """The standard library's gettext translations of ``lang`` (none for English: the message
    ids are the English text)."""
    if lang == "en":
        return gettext.NullTranslations()
    with mo_path(lang).open("rb") as f:
        return gettext.GNUTranslations(f)


def tr(msgid: str, /, **values: object) -> str:
    """``msgid`` in the current language, formatted with ``values`` (``str.format``)."""
    text = translations(language()).gettext(msgid) if language() != "en" else msgid
    return text.format(**values) if values else text


def trn(n: int, singular: str, plural: str, /, **values: object) -> str:
    """The singular or plural message for ``n`` (``ngettext``: Chinese and Japanese have one
    form), formatted with ``n`` and ``values``."""
    return translations(language()).ngettext(singular, plural, n).format(n=n, **values)


def N_(msgid: str, /) -> str:  # noqa: N802 - the gettext convention
    """Mark ``msgid`` for the catalog where it is defined (a table); translate it where used."""
    return msgid


#: Texts made by :func:`N_format`: the English text -> (message, values), to translate later.
_FORMATTED: dict[str, tuple[str, tuple[object, ...]]] = {}


def N_format(msgid: str, /, *values: object) -> str:  # noqa: N802 - as N_
    """``msgid.format(*values)`` in English, remembered so that :func:`tr_text` can translate it
    later (a help text built when the commands are defined, before the language is known)."""
    text = msgid.format(*values)
    _FORMATTED[text] = (msgid, values)
    return text


def tr_text(text: str, /) -> str:
    """A text marked with :func:`N_` or made by :func:`N_format`, in the current language."""
    msgid, values = _FORMATTED.get(text, (text, ()))
    values = tuple(tr_text(v) if isinstance(v, str) else v for v in values)  # N_ marked too
    translated = translations(language()).gettext(msgid) if language() != "en" else msgid
    return translated.format(*values) if values else translated


#: How a list is said: commas in English, the enumeration comma (、) in Chinese and Japanese.
LIST_SEPARATOR = {"en": ", ", "zh-Hans": "、", "zh-Hant": "、", "ja": "、"}


def tr_reason(reason: str, names: Callable[[str], str] | None = None) -> str:
    """An engine's :class:`~duel.reason.Reason` in the current language: its template
    translated, its values too (component names as shown, by ``names``, default :func:`shown`;
    resources and Ages as words; lists with the language's separator); any other text as it
    is.

    >>> from duel.reason import Reason
    >>> r = Reason("{card} is not in the discard pile", card="Lumber Yard")
    >>> _ = set_language("zh-Hans"); tr_reason(r)
    '伐木场不在弃牌堆中'
    >>> _ = set_language("en"); tr_reason(r)
    'Lumber Yard is not in the discard pile'
    """
    if not isinstance(reason, Reason) or language() == "en":
        return str(reason)
    names = names or shown
    return tr(reason.template, **{k: _said(v, names) for k, v in reason.values.items()})


def tr_error(error: BaseException, names: Callable[[str], str] | None = None) -> str:
    """An exception's message in the current language (an engine error raised with a
    :class:`~duel.reason.Reason` is translated; any other says its own text)."""
    return tr_reason(reason_of(error), names)


def _said(value: object, names: Callable[[str], str]) -> object:
    if isinstance(value, Reason):
        return tr_reason(value, names)
    if isinstance(value, tuple):
        return LIST_SEPARATOR[language()].join(str(_said(v, names)) for v in value)
    if isinstance(value, str):
        return names(value)
    return value


def placeholders(text: str) -> list[str]:
    """The ``{name}`` fields of a message, sorted, each once (a translation may repeat one).

    >>> placeholders("{a} pays {n} coins to {b}")
    ['a', 'b', 'n']
    """
    return sorted({field for _, field, _, _ in string.Formatter().parse(text) if field is not None})


# --- component names ----------------------------------------------------------------------------
@cache
def _names() -> dict:
    return data.load("duel/names_i18n.json")


@cache
def _usable(kind: str, lang: str, mode: str) -> dict[str, str]:
    """English -> shown name for one kind, language and mode (names shared by two components
    of the kind are dropped: both show English, so that a shown name always designates one)."""
    if mode == "english" or lang == "en":
        return {}
    chosen = {}
    for english, cells in _names()[kind].items():
        cell = cells.get(lang)
        if cell and (mode == "all" or cell[1] in SHOWN_CONFIDENCE):
            chosen[english] = cell[0]
    counts: dict[str, int] = {}
    for shown in chosen.values():
        counts[shown] = counts.get(shown, 0) + 1
    return {en: shown for en, shown in chosen.items() if counts[shown] == 1}


def display_name(kind: str, english: str, lang: str | None = None, mode: str | None = None) -> str:
    """The name a component is shown by (see the module's docstring); English when unknown."""
    lang = lang or language()
    if lang == "en":
        return english
    return _usable(kind, lang, mode or name_mode(lang)).get(english, english)


def shown(english: str) -> str:
    """Any component's shown name, from its English name (card, wonder or token names never
    coincide in English); other text is returned as it is."""
    if language() == "en":
        return english
    for kind in KINDS:
        if english in _names()[kind]:
            return display_name(kind, english)
    return english


@cache
def _localized_to_english() -> tuple[re.Pattern[str], dict[str, str]]:
    """Every community name of every language (any confidence) -> its English name."""
    table: dict[str, str] = {}
    ambiguous: set[str] = set()
    for kind in KINDS:
        for english, cells in _names()[kind].items():
            for name, _ in cells.values():
                if table.get(name, english) != english:
                    ambiguous.add(name)
                table[name] = english
    for name in ambiguous:
        del table[name]
    ordered = sorted(table, key=len, reverse=True)
    return re.compile("|".join(map(re.escape, ordered))), table


def to_english(text: str) -> str:
    """``text`` with every community name of a component replaced by the English name, so that
    a typed move reads the same in every language (the notation stays English).

    >>> to_english("build 伐木场"), to_english("wonder 空中花园 with 花园")
    ('build Lumber Yard', 'wonder The Hanging Gardens with Gardens')
    """
    if text.isascii():
        return text
    pattern, table = _localized_to_english()
    return pattern.sub(lambda m: table[m.group(0)], text)


# --- the base game's names (``wonders``) ------------------------------------------------------
@cache
def _base_names() -> dict:
    return data.load("base/names_i18n.json")


def base_name(kind: str, english: str, lang: str | None = None, mode: str | None = None) -> str:
    """A base-game card's or Wonder's shown name (``kind``: ``card`` or ``wonder``). The only
    source is Traditional Chinese (the reference's ``chinese_name``): zh-Hant shows it (unless
    the name mode is ``english``); zh-Hans shows it only with ``--names all`` (no source attests
    a Simplified form, and none is derived), English otherwise; Japanese shows English.

    >>> base_name("card", "Lumber Yard", "zh-Hant"), base_name("card", "Lumber Yard", "zh-Hans")
    ('堆木場', 'Lumber Yard')
    >>> base_name("wonder", "The Colossus of Rhodes", "zh-Hans", "all")
    '太陽神銅像'
    """
    lang = lang or language()
    if lang not in ("zh-Hant", "zh-Hans"):
        return english
    mode = mode or name_mode(lang)
    if mode == "english" or (lang == "zh-Hans" and mode != "all"):
        return english
    return _base_names()[kind].get(english, {}).get("zh-Hant", english)


def base_to_english(text: str) -> str:
    """``text`` with a base-game card's or Wonder's Chinese name replaced by its English name
    (what a player types may be the name shown).

    >>> base_to_english("build 堆木場")
    'build Lumber Yard'
    """
    if text.isascii():
        return text
    table = {
        name: english
        for kind in ("card", "wonder")
        for english, cells in _base_names()[kind].items()
        for name in cells.values()
    }
    pattern = "|".join(map(re.escape, sorted(table, key=len, reverse=True)))  # 圓形競技場 first
    return re.sub(pattern, lambda m: table[m.group(0)], text)


# --- display width ------------------------------------------------------------------------------
def display_width(text: str) -> int:
    """Terminal columns of ``text``: CJK and full-width characters take two."""
    width = wcswidth(text)
    if width >= 0:
        return width
    return sum(max(wcwidth(ch), 0) for ch in text)  # control characters count as nothing


def ljust(text: str, width: int) -> str:
    return text + " " * max(0, width - display_width(text))


def rjust(text: str, width: int) -> str:
    return " " * max(0, width - display_width(text)) + text


def center(text: str, width: int) -> str:
    """Like ``str.center`` (the extra space on the right, as str.center for odd widths)."""
    if text.isascii():
        return text.center(width)
    room = max(0, width - display_width(text))
    left = room // 2
    return " " * left + text + " " * (room - left)


def clip(text: str, width: int, mark: str = ".") -> str:
    """``text`` cut to ``width`` columns, ending with ``mark`` when cut (never after a space:
    ``Logging.``, not ``Logging .``).

    >>> clip("Logging Camp", 9), clip("Pharmacist", 9)
    ('Logging.', 'Pharmaci.')
    """
    if display_width(text) <= width:
        return text
    out, used = "", display_width(mark)
    for ch in text:
        w = max(wcwidth(ch), 0)
        if used + w > width:
            break
        out += ch
        used += w
    return (out.rstrip() if mark else out) + mark


def wrap(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` columns: ``textwrap.wrap`` (long words broken) for
    ASCII text; otherwise at spaces where a word fits, and anywhere in a word that does not
    (CJK text has no spaces).

    >>> wrap("伐木场 一二三四五", 6)
    ['伐木场', '一二三', '四五']
    """
    if text.isascii():
        import textwrap

        return textwrap.wrap(text, width, break_long_words=True)
    lines: list[str] = []
    line = ""
    for word in text.split():
        candidate = f"{line} {word}" if line else word
        if display_width(candidate) <= width:
            line = candidate
            continue
        if line:
            lines.append(line)
            line = ""
        for ch in word:
            if line and display_width(line + ch) > width:
                lines.append(line)
                line = ""
            line += ch
    if line:
        lines.append(line)
    return lines

"""``duel host``, ``duel join`` and ``duel server``: the network game's commands
(``docs/playing.md``, "Playing a friend over the network")."""

from __future__ import annotations

import asyncio
import socket
import ssl
import sys
from pathlib import Path
from typing import Annotated

import typer

from duel.app.cli.support import check_finite, fail
from duel.app.control.saves import user_data_dir
from duel.app.i18n import N_, N_format, tr
from duel.quote import quoted

DEFAULT_PORT = 8765
#: How often ``duel server`` looks for games added to its folder by ``duel host --add``.
WATCH_SECONDS = 1.0

SeatOption = N_(
    "Who plays {}: human, or an AI level (cmcts, the strongest, in the base game; mcts in the"
    " expansions; ai for the strongest) \\[default: human]"
)
PortOption = Annotated[int, typer.Option(help=N_("The port to listen on"))]
BindOption = Annotated[
    str,
    typer.Option(
        help=N_("The address to listen on (0.0.0.0: every interface; 127.0.0.1: this machine)")
    ),
]
CertOption = Annotated[
    Path | None,
    typer.Option(help=N_("TLS certificate (PEM): the connections are encrypted (wss://)")),
]
KeyOption = Annotated[
    Path | None, typer.Option(help=N_("The certificate's private key, if not in --cert's file"))
]
FolderOption = Annotated[
    Path | None,
    typer.Option(
        help=N_("Where the server saves its games (default: the data folder's net/ folder)")
    ),
]


def _folder(folder: Path | None) -> Path:
    return folder if folder is not None else user_data_dir() / "net"


def _expansions(names: str | None) -> tuple[str, ...]:
    from duel.expansions import EXPANSIONS

    if not names:
        return ()
    if names.strip().lower() == "both":
        return tuple(sorted(EXPANSIONS))
    chosen = tuple(sorted({n.strip().lower() for n in names.split(",") if n.strip()}))
    unknown = [n for n in chosen if n not in EXPANSIONS]
    if unknown or not chosen:
        fail(
            tr(
                "--expansions: {value} is not an expansion this program plays ({names})",
                value=quoted(unknown[0] if unknown else names),
                names=", ".join(EXPANSIONS),
            )
        )
    return chosen


def _seat(level: str | None, expansions: tuple[str, ...]) -> str:
    """A seat's player: human, or an AI level checked for the game (``ai``: the strongest)."""
    if level is None or level == "human":
        return "human"
    if expansions:
        from duel.solvers.xplayers import DEFAULT_XLEVEL, XLEVELS, make_xplayer

        level = DEFAULT_XLEVEL if level == "ai" else level
        try:
            make_xplayer(level)
        except ValueError:
            fail(
                tr(
                    "{level}: expansion games are played by human, {levels}",
                    level=level,
                    levels=", ".join(XLEVELS),
                )
            )
        return level
    from duel.app.control.game import level_error
    from duel.app.control.levels import default_player

    level = default_player("cmcts") if level == "ai" else level
    problem = level_error(level)
    if problem is not None:
        fail(problem)
    return level


def _tls(cert: Path | None, key: Path | None) -> ssl.SSLContext | None:
    from duel.net.server import tls_context

    if cert is None:
        if key is not None:
            fail(tr("--key needs --cert"))
        return None
    try:
        return tls_context(cert, key)
    except (OSError, ssl.SSLError) as error:
        fail(tr("Could not read the certificate {path}: {error}", path=cert, error=error))


def _addresses(bind: str, port: int, tls: bool) -> list[str]:
    """How a player reaches this server: the names and addresses to give ``duel join``."""
    if bind not in ("0.0.0.0", "::", ""):
        return [f"{bind}:{port}"]
    names = [socket.gethostname()]
    try:
        probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        probe.connect(("192.0.2.1", 9))  # no packet is sent: this picks the outgoing address
        names.append(probe.getsockname()[0])
        probe.close()
    except OSError:
        pass
    return [f"{name}:{port}" for name in dict.fromkeys(names)]


def _announce(tables, bind: str, port: int, tls: bool) -> None:
    address = _addresses(bind, port, tls)[-1]
    flag = " --tls" if tls else ""
    for table in tables:
        typer.echo(tr("Game {id}: {what}", id=table.id, what=table.describe()))
        for seat in ("A", "B", "spectator"):
            if seat in ("A", "B") and table.is_ai("AB".index(seat)):
                level = table.seats["AB".index(seat)]
                typer.echo("  " + tr("{seat}: the AI ({level})", seat=seat, level=level))
                continue
            name = tr("spectator") if seat == "spectator" else seat
            code = table.codes[seat]
            typer.echo(f"  {name:10} {code}    duel join{flag} {address} {code}")


def _security(tls: bool) -> None:
    if tls:
        typer.echo(tr("TLS is on: the connections are encrypted (players join with --tls)."))
    else:
        typer.echo(
            tr(
                "No certificate given (--cert): the connections are not encrypted, so anyone on"
                " the network path can read the moves and the join codes. On the internet, give"
                " a certificate or use an SSH tunnel (docs/playing.md)."
            )
        )


def _serve(server, bind: str, port: int, tls: ssl.SSLContext | None, tables, watch: bool) -> None:
    from duel.net.server import run_server

    def ready(bound: int) -> None:
        _security(tls is not None)
        _announce(tables, bind, bound, tls is not None)
        typer.echo(tr("Listening on {address}; Ctrl-C stops the server (the games are saved).",
                      address=f"{bind}:{bound}"))
        sys.stdout.flush()

    async def main() -> None:
        if watch:
            asyncio.ensure_future(_watch(server, bind, tls is not None))
        await run_server(server, bind, port, tls=tls, ready=ready)

    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        typer.echo(tr("Server stopped; the games are saved in {folder}.", folder=server.folder))
    except OSError as error:
        fail(tr("Could not listen on {address}: {error}", address=f"{bind}:{port}", error=error))


async def _watch(server, bind: str, tls: bool) -> None:
    """Open the games that ``duel host --add`` writes into the folder."""
    from duel.net.referee import Table

    while True:
        await asyncio.sleep(WATCH_SECONDS)
        for path in sorted(server.folder.glob("table-*.json")):
            if path.stem.removeprefix("table-") in server.tables:
                continue
            try:
                table = server.add(Table.load(path))
            except (OSError, ValueError, KeyError, TypeError, IndexError):
                continue
            typer.echo(tr("Game {id} added: {what}", id=table.id, what=table.describe()))


def register(app: typer.Typer) -> None:
    @app.command()
    def host(
        expansions: Annotated[
            str | None,
            typer.Option(help=N_("Play with expansions: pantheon, agora or both")),
        ] = None,
        a: Annotated[
            str | None, typer.Option("--a", "-a", help=N_format(SeatOption, "A"))
        ] = None,
        b: Annotated[
            str | None, typer.Option("--b", "-b", help=N_format(SeatOption, "B"))
        ] = None,
        think: Annotated[
            float, typer.Option(help=N_("Seconds per move for an AI seat"))
        ] = 1.0,
        clock: Annotated[
            str | None,
            typer.Option(
                help=N_("Time control: minutes each + seconds added a move (10+5) [default: none]")
            ),
        ] = None,
        hints: Annotated[
            bool,
            typer.Option(help=N_("Allow hints and analysis, for both players")),
        ] = False,
        port: PortOption = DEFAULT_PORT,
        bind: BindOption = "0.0.0.0",
        cert: CertOption = None,
        key: KeyOption = None,
        folder: FolderOption = None,
        add: Annotated[
            bool,
            typer.Option(
                "--add",
                help=N_(
                    "Add the game to the duel server that serves --folder, print its codes and"
                    " leave"
                ),
            ),
        ] = False,
        resume: Annotated[
            bool,
            typer.Option(help=N_("Start no new game: serve the saved ones (after a restart)")),
        ] = False,
    ) -> None:
        """Host a game: print a join code for each seat and one for spectators, then serve it
        (and the games saved before in the folder) until Ctrl-C."""
        from duel.net.referee import Clock, Table
        from duel.net.server import GameServer

        check_finite("--think", think, positive=True)
        chosen = _expansions(expansions)
        seats = (_seat(a, chosen), _seat(b, chosen))
        try:
            time_control = Clock.parse(clock) if clock else None
        except ValueError as error:
            fail(str(error))
        place = _folder(folder)
        place.mkdir(parents=True, exist_ok=True)
        server = GameServer(place, say=typer.echo)
        tables = [] if add else [t for t in server.resume() if not t.over]
        if not resume:
            table = Table.new(chosen, seats, clock=time_control, hints=hints, think=think)
            table.path = place / f"table-{table.id}.json"
            table.deal()
            table.save()
            if add:
                _announce([table], bind, port, cert is not None)
                return
            server.add(table)
            tables.append(table)
        _serve(server, bind, port, _tls(cert, key), tables, watch=False)

    @app.command()
    def server(
        port: PortOption = DEFAULT_PORT,
        bind: BindOption = "0.0.0.0",
        cert: CertOption = None,
        key: KeyOption = None,
        folder: FolderOption = None,
    ) -> None:
        """Serve many games in one process: every game saved in the folder (resumed after a
        restart) and every game `duel host --add` puts there."""
        from duel.net.server import GameServer

        place = _folder(folder)
        place.mkdir(parents=True, exist_ok=True)
        game_server = GameServer(place, say=typer.echo)
        tables = [t for t in game_server.resume() if not t.over]
        _serve(game_server, bind, port, _tls(cert, key), tables, watch=True)

    @app.command()
    def join(
        address: Annotated[str, typer.Argument(help=N_("The server: HOST or HOST:PORT"))],
        code: Annotated[str, typer.Argument(help=N_("Your join code (or the spectator code)"))],
        line: Annotated[
            bool, typer.Option(help=N_("Line by line instead of the full-screen app"))
        ] = False,
        plain: Annotated[bool, typer.Option(help=N_("Plain text, no colours or table"))] = False,
        tls: Annotated[
            bool, typer.Option(help=N_("The server has a certificate: connect with TLS"))
        ] = False,
        cafile: Annotated[
            Path | None,
            typer.Option(help=N_("Trust this certificate (a host's own, self-signed one)")),
        ] = None,
        record: Annotated[
            Path | None,
            typer.Option(help=N_("Where to write the game's record when it ends")),
        ] = None,
    ) -> None:
        """Join a game hosted with `duel host` (or on a `duel server`) with your code."""
        from duel.net.client import ThreadedConnection, server_url
        from duel.net.protocol import CODE_PATTERN, normal_code
        from duel.net.seat import RemoteSeat

        if not CODE_PATTERN.match(normal_code(code)):
            fail(tr("{code} is not a join code (three groups of four letters and digits)",
                    code=quoted(code)))
        context = None
        if tls or cafile is not None:
            context = ssl.create_default_context(cafile=str(cafile) if cafile else None)
        url = server_url(address, tls=context is not None)
        if context is None:
            typer.echo(tr("Not encrypted (no --tls): fine on a local network or through an SSH"
                          " tunnel; on the internet, ask the host for a certificate."))
        net = ThreadedConnection(url, code, context).start()
        if not net.wait_welcome():
            why = net.connection.fatal
            net.close()
            if why in ("bad-code", "bad-version", "busy", "replaced"):
                from duel.net.protocol import ERRORS

                fail(tr(ERRORS[why]) if why != "bad-version" else net.connection.errors[-1][1])
            fail(tr("Could not reach {url}: {why}", url=url, why=why or tr("no answer")))
        seat = RemoteSeat(net)
        seat.record_target = record
        full_screen = not (line or plain) and sys.stdin.isatty() and sys.stdout.isatty()
        if full_screen and not (seat.game.expansions and seat.player is None):
            from duel.net.screens import run_screen

            exit_code = run_screen(seat)
            if seat.over:
                typer.echo(seat.result_text())
                typer.echo(seat.review_text())
            else:
                typer.echo(tr("The game goes on on the server: join it again with the same code."))
        else:
            from duel.net.line import run_line

            exit_code = run_line(seat, plain=plain)
        net.close()
        raise typer.Exit(exit_code)

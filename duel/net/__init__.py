"""The network game (a program, like :mod:`duel.app`): a server that is the referee and clients
that show each player only their view.

* :mod:`duel.net.protocol`: the messages, versioned JSON documents (``docs/protocol.md``).
* :mod:`duel.net.referee`: one game as the server keeps it: the true state, each seat's view
  of it, the clock, the save after every move.
* :mod:`duel.net.server`: the WebSocket server (``duel host``, ``duel server``): many games,
  join codes, limits on what a connection may send.
* :mod:`duel.net.client`: the client's connection (reconnects on its own) and its game as the
  seat sees it; :mod:`duel.net.screens` puts it on the local app's views.

The engine does not import this package (``tests/test_layers.py``).
"""

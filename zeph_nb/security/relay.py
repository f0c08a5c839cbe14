"""The sandbox's end of the network proxy: a loopback port inside the sandbox, relayed to the proxy's Unix socket.

Run inside the sandbox as ``python -I relay.py SOCKET -- command …`` (standalone: it imports nothing of zeph-nb,
so it works with ``-I`` whatever the sandbox can see). It listens on 127.0.0.1 in the sandbox's own network
namespace, forks a child that relays each connection to SOCKET, points the proxy variables at the port, and
execs the command. The relay dies with the command: when the command exits, the sandbox's PID namespace ends.
The relay decides nothing; the proxy outside the sandbox checks every host.
"""

from __future__ import annotations

import contextlib
import os
import socket
import sys
import threading

CHUNK = 65536


def _pump(source: socket.socket, sink: socket.socket) -> None:
    try:
        while data := source.recv(CHUNK):
            sink.sendall(data)
    except OSError:
        pass
    finally:
        for sock, how in ((sink, socket.SHUT_WR), (source, socket.SHUT_RD)):
            with contextlib.suppress(OSError):
                sock.shutdown(how)


def _serve(listener: socket.socket, path: str) -> None:
    while True:
        client, _ = listener.accept()
        upstream = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            upstream.connect(path)
        except OSError:
            client.close()
            upstream.close()
            continue
        threading.Thread(target=_pump, args=(client, upstream), daemon=True).start()
        threading.Thread(target=_pump, args=(upstream, client), daemon=True).start()


def main(argv: list[str]) -> int:
    if len(argv) < 3 or argv[1] != "--":
        sys.stderr.write("usage: relay.py SOCKET -- command ...\n")
        return 2
    path, command = argv[0], argv[2:]
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    port = listener.getsockname()[1]
    if os.fork() == 0:
        _serve(listener, path)
        os._exit(0)
    listener.close()
    proxy = f"http://127.0.0.1:{port}"
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):
        os.environ[name] = proxy
    for name in ("NO_PROXY", "no_proxy"):
        os.environ.pop(name, None)
    os.execvp(command[0], command)  # noqa: S606 - the sandboxed command itself
    return 127  # pragma: no cover - execvp does not return


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

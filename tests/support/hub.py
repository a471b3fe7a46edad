"""A stand-in for the Hugging Face hub on 127.0.0.1, so that downloads by hub id are tested without the network.

It answers what ``huggingface_hub.snapshot_download`` asks: the revision of a model
(``GET /api/models/<id>/revision/<rev>``), its file tree (``GET /api/models/<id>/tree/<rev>``) and each file
(``HEAD``/``GET /<id>/resolve/<rev>/<file>``). A gated model answers 401 with the hub's ``X-Error-Code: GatedRepo``,
a forbidden one a bare 403, an unknown one 404 ``RepoNotFound``. Every request path is recorded, so a test can say which files were fetched.
Point ``HF_ENDPOINT`` at :attr:`FakeHub.url` in the process that downloads (``huggingface_hub`` reads it on import).
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import unquote, urlparse

Files = Mapping[str, bytes]


@dataclass
class FakeHub:
    url: str
    requests: list[str] = field(default_factory=list)

    def fetched(self, repo_id: str) -> set[str]:
        """The files of ``repo_id`` whose bytes were sent (GET on their resolve URL)."""
        prefix = f"GET /{repo_id}/resolve/"
        return {r[len(prefix) :].split("/", 1)[1] for r in self.requests if r.startswith(prefix)}


def _commit(files: Files) -> str:
    digest = hashlib.sha1()
    for name in sorted(files):
        digest.update(name.encode() + b"\0" + files[name])
    return digest.hexdigest()


@contextmanager
def fake_hub(
    repos: Mapping[str, Files], gated: frozenset[str] = frozenset(), forbidden: frozenset[str] = frozenset()
) -> Iterator[FakeHub]:
    """A hub serving ``repos`` (hub id → file name → bytes); the ids in ``gated`` refuse with 401 and the hub's
    GatedRepo code, those in ``forbidden`` with a bare 403 (a token without the right to read it)."""
    hub = FakeHub("")

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:  # the test's output stays quiet
            return

        def _send(self, status: int, body: bytes, headers: Mapping[str, str], head: bool = False) -> None:
            self.send_response(status)
            for key, value in {**headers, "Content-Length": str(len(body))}.items():
                self.send_header(key, value)
            self.end_headers()
            if not head:
                self.wfile.write(body)

        def _json(self, value: object, head: bool = False) -> None:
            self._send(200, json.dumps(value).encode(), {"Content-Type": "application/json"}, head)

        def _refuse(self, repo_id: str, head: bool) -> bool:
            if repo_id in gated:
                self._send(401, b'{"error": "gated"}', {"X-Error-Code": "GatedRepo", "X-Error-Message": "gated"}, head)
                return True
            if repo_id in forbidden:
                self._send(403, b'{"error": "forbidden"}', {}, head)
                return True
            if repo_id not in repos:
                self._send(404, b'{"error": "not found"}', {"X-Error-Code": "RepoNotFound"}, head)
                return True
            return False

        def _answer(self, head: bool) -> None:
            path = unquote(urlparse(self.path).path)
            hub.requests.append(f"{self.command} {path}")
            if path.startswith("/api/models/"):
                rest = path[len("/api/models/") :]
                for kind in ("revision", "tree"):
                    if f"/{kind}/" in rest:
                        repo_id = rest.split(f"/{kind}/", 1)[0]
                        if self._refuse(repo_id, head):
                            return
                        files = repos[repo_id]
                        if kind == "revision":
                            siblings = [{"rfilename": name} for name in sorted(files)]
                            self._json({"id": repo_id, "sha": _commit(files), "siblings": siblings}, head)
                        else:
                            self._json([_tree_entry(name, data) for name, data in sorted(files.items())], head)
                        return
            elif "/resolve/" in path:
                repo_id, rest = path[1:].split("/resolve/", 1)
                if self._refuse(repo_id, head):
                    return
                files = repos[repo_id]
                name = rest.split("/", 1)[1]
                if name in files:
                    sha = _commit(files)
                    etag = f'"{hashlib.sha1(files[name]).hexdigest()}"'
                    headers = {"X-Repo-Commit": sha, "ETag": etag, "Content-Type": "application/octet-stream"}
                    self._send(200, files[name], headers, head)
                    return
                self._send(404, b"", {"X-Error-Code": "EntryNotFound"}, head)
                return
            self._send(404, b"", {}, head)

        def do_GET(self) -> None:  # noqa: N802 (http.server's name)
            self._answer(head=False)

        def do_HEAD(self) -> None:  # noqa: N802
            self._answer(head=True)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    hub.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield hub
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def _tree_entry(name: str, data: bytes) -> dict[str, object]:
    return {"type": "file", "path": name, "size": len(data), "oid": hashlib.sha1(data).hexdigest()}

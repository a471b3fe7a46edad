"""Files a user chooses always reach the page: the server's reply to an upload is kept when a run starts.

When a user chooses files, the browser first asks the server where to upload them (a ``file_urls_request``) and
uploads them only once the reply (a ``file_urls_response``) arrives. The server queues that reply with the page's
own messages, and Streamlit empties that queue whenever a new run starts, keeping only the messages of the runs'
lifecycle. When a run starts between the reply being queued and being sent — the run of a reference chosen a moment
before, with other sessions slowing the server — the reply is gone: the browser waits for ever and the files never
reach the page (the systems of 3 to 6 of 10 concurrent sessions in ``benchmarks/load.py``; never with one session).
Replies are kept across that clear.

Streamlit has no public switch for this; with :mod:`dashboard.legacy_pages` it is one of the two places ScoreLens
reaches into Streamlit's internals. tests/app/test_upload_replies.py fails the day Streamlit keeps the replies itself.
"""

from __future__ import annotations

from functools import wraps

from streamlit.runtime.forward_msg_queue import ForwardMsgQueue

KEPT = frozenset({"file_urls_response"})
streamlit_clear = ForwardMsgQueue.clear  # the clear being wrapped, for the test that it still drops replies


def keep_upload_replies() -> None:
    """Make every session's message queue keep upload replies when a new run clears it (once per process)."""
    if ForwardMsgQueue.clear is not streamlit_clear:
        return

    @wraps(streamlit_clear)
    def clear(
        self: ForwardMsgQueue, retain_lifecycle_msgs: bool = False, fragment_ids_this_run: list[str] | None = None
    ) -> None:
        # Only a run's clear keeps anything (retain_lifecycle_msgs); a closing session's drops all, replies too.
        replies = [m for m in self._queue if m.WhichOneof("type") in KEPT] if retain_lifecycle_msgs else []
        streamlit_clear(self, retain_lifecycle_msgs=retain_lifecycle_msgs, fragment_ids_this_run=fragment_ids_this_run)
        still = {id(m) for m in self._queue}
        self._queue.extend(m for m in replies if id(m) not in still)

    ForwardMsgQueue.clear = clear  # type: ignore[method-assign]

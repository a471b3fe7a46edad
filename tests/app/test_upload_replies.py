"""A run that starts keeps the server's reply to an upload in the session's queue (dashboard.upload_replies)."""

from __future__ import annotations

from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.runtime.forward_msg_queue import ForwardMsgQueue

from dashboard.upload_replies import keep_upload_replies, streamlit_clear


def _queue() -> ForwardMsgQueue:
    queue = ForwardMsgQueue()
    reply = ForwardMsg()
    reply.file_urls_response.response_id = "upload-1"
    queue.enqueue(reply)
    delta = ForwardMsg()
    delta.metadata.delta_path[:] = [0, 0]
    delta.delta.new_element.markdown.body = "an element of the interrupted run"
    queue.enqueue(delta)
    return queue


def _types(queue: ForwardMsgQueue) -> list[str | None]:
    return [m.WhichOneof("type") for m in queue.flush()]


def test_streamlit_alone_still_drops_an_upload_reply_when_a_run_starts():
    """The day this fails, Streamlit keeps the replies itself and dashboard.upload_replies can go."""
    queue = _queue()
    streamlit_clear(queue, retain_lifecycle_msgs=True)
    assert _types(queue) == []


def test_a_run_that_starts_keeps_the_reply_and_drops_the_old_runs_elements():
    keep_upload_replies()
    keep_upload_replies()  # installed once, however often called
    queue = _queue()
    queue.clear(retain_lifecycle_msgs=True)
    assert _types(queue) == ["file_urls_response"]
    queue = _queue()
    queue.clear()  # a session that closes drops everything
    assert _types(queue) == []

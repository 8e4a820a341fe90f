"""Drives Murmur's Mastodon API with Mastodon.py, an independently written client.

Run by tests/api/mastodon_clients.rs with MURMUR_BASE (the instance), MURMUR_ADA_COOKIE,
MURMUR_BOB_COOKIE (session cookies: each member consents on Murmur's consent calls as the
consent page does) and MURMUR_PUSH_ENDPOINT (an address the instance may push to). Exits
non-zero on the first check that fails.
"""

import os
import queue
import struct
import time
import zlib

import requests
from mastodon import Mastodon, MastodonAPIError, MastodonNotFoundError, StreamListener

BASE = os.environ["MURMUR_BASE"]
SCOPES = ["read", "write", "follow", "push"]
OOB = "urn:ietf:wg:oauth:2.0:oob"


def fresh_connections():
    """A session that opens a connection per request. The server closes a connection idle for
    its header timeout; on a loaded machine a member's pooled connection can sit idle that long
    and be reused just as it closes, which fails the request whatever the server does."""
    session = requests.Session()
    session.headers["Connection"] = "close"
    return session


def sign_in(cookie):
    client_id, client_secret = Mastodon.create_app(
        "Mastodon.py", scopes=SCOPES, redirect_uris=OOB, website="https://example.org", api_base_url=BASE
    )
    app = Mastodon(client_id=client_id, client_secret=client_secret, api_base_url=BASE, session=fresh_connections())
    url = app.auth_request_url(scopes=SCOPES, redirect_uris=OOB, allow_http=True)
    assert url.startswith(BASE + "/oauth/authorize?"), url
    # The member's Allow, as the consent page sends it with their session.
    answer = requests.post(
        BASE + "/api/oauth/authorization",
        json={"clientId": client_id, "redirectUri": OOB, "scope": " ".join(SCOPES), "allow": True},
        headers={"Cookie": cookie, "Origin": BASE},
        timeout=30,
    )
    answer.raise_for_status()
    code = answer.json()["code"]
    app.log_in(code=code, redirect_uri=OOB, scopes=SCOPES, allow_http=True)
    return app


def ids(statuses):
    return [str(s.id) for s in statuses]


def png(width, height):
    """A grey PNG, made here so the script needs no imaging library."""

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    rows = b"".join(b"\x00" + b"\x80" * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


ada = sign_in(os.environ["MURMUR_ADA_COOKIE"])
bob = sign_in(os.environ["MURMUR_BOB_COOKIE"])

me = ada.account_verify_credentials()
assert me.username == "ada", me
bob_me = bob.me()
instance = ada.instance()
assert "Murmur" in instance.version, instance.version

poll = ada.make_poll(["tea", "coffee"], expires_in=3600)
first = ada.status_post("Hello @bob, tea or coffee? #murmur", poll=poll)
assert "murmur" in [t.name for t in first.tags], first.tags
assert first.application.name == "Mastodon.py", first.application
assert str(first.mentions[0].id) == str(bob_me.id)

# A new avatar and bio, as the client sends them (a multipart form).
updated = ada.account_update_credentials(note="Counts things", avatar=png(48, 48), avatar_mime_type="image/png")
assert updated.note == "<p>Counts things</p>", updated.note
assert updated.avatar.startswith(BASE + "/"), updated.avatar
assert requests.get(updated.avatar, timeout=30).status_code == 200

bob.account_follow(me.id)
relationship = bob.account_relationships([me.id])[0]
assert relationship.following, relationship
assert str(first.id) in ids(bob.timeline_home()), "Bob's home has Ada's post"
voted = bob.poll_vote(first.poll.id, [1])
assert voted.own_votes == [1], voted
assert bob.status_favourite(first.id).favourited
reblog = bob.status_reblog(first.id)
assert str(reblog.reblog.id) == str(first.id)
reply = bob.status_post("Coffee!", in_reply_to_id=first.id)

kinds = [n.type for n in ada.notifications()]
assert kinds == ["mention", "reblog", "favourite", "follow"], kinds
assert [n.type for n in ada.notifications(types=["favourite"])] == ["favourite"]
context = ada.status_context(first.id)
assert ids(context.descendants) == [str(reply.id)], context

# Paging by the Link header, as Mastodon.py's fetch_next reads it.
made = [ada.status_post(f"post {n}") for n in range(3)]
page = ada.timeline_home(limit=2)
assert ids(page) == [str(made[2].id), str(made[1].id)], ids(page)
older = ada.fetch_next(page)
assert ids(older)[0] == str(made[0].id), ids(older)

edited = ada.status_update(made[0].id, "post 0, edited")
assert edited.edited_at is not None
assert "edited" in ada.status_source(made[0].id).text
history = ada.status_history(made[0].id)
assert len(history) == 2, history

# Streaming (Server-Sent Events, as Mastodon.py reads them): a followed member's post and a
# notification each arrive while the stream is open, not on a later read. The bound is loose
# for a shared test machine; how fast events arrive is the benchmark's to measure.
WITHIN = 3.0
events = queue.Queue()


class Listener(StreamListener):
    def on_update(self, status):
        events.put(("update", str(status.id)))

    def on_notification(self, notification):
        events.put(("notification", notification.type))


def next_event(kind):
    deadline = time.monotonic() + WITHIN
    while True:
        left = deadline - time.monotonic()
        assert left > 0, f"no {kind} event within {WITHIN} s"
        try:
            got, value = events.get(timeout=left)
        except queue.Empty:
            raise AssertionError(f"no {kind} event within {WITHIN} s")
        if got == kind:
            return value


stream = ada.stream_user(Listener(), run_async=True, reconnect_async=False)
# The handle holds its connection once the server answered 200, and the server answers only
# after the stream is subscribed: from then on no event is missed.
deadline = time.monotonic() + 30
while stream.connection is None:
    assert stream.is_alive() and time.monotonic() < deadline, "the stream did not open"
    time.sleep(0.01)
ada.account_follow(bob_me.id)
news = bob.status_post("News from Bob")
assert next_event("update") == str(news.id)
bob.status_favourite(made[2].id)
assert next_event("notification") == "favourite"
stream.close()

# Direct messages: a direct status is a message in Murmur. Bob's app hears of it on the direct
# stream, reads his conversations and answers in the same conversation.
class DirectListener(StreamListener):
    def on_conversation(self, conversation):
        events.put(("conversation", str(conversation.last_status.id)))


direct = bob.stream_direct(DirectListener(), run_async=True, reconnect_async=False)
deadline = time.monotonic() + 30
while direct.connection is None:
    assert direct.is_alive() and time.monotonic() < deadline, "the direct stream did not open"
    time.sleep(0.01)
message = ada.status_post("@bob a word in private", visibility="direct")
assert message.visibility == "direct", message
assert next_event("conversation") == str(message.id)
direct.close()
conversations = bob.conversations()
assert [str(c.last_status.id) for c in conversations] == [str(message.id)], conversations
assert [a.username for a in conversations[0].accounts] == ["ada"], conversations[0].accounts
assert not bob.conversations_read(conversations[0].id).unread
answer = bob.status_post("Gladly", in_reply_to_id=message.id, visibility="direct")
assert ids(ada.status_context(message.id).descendants) == [str(answer.id)]
try:
    ada.status_favourite(answer.id)
    raise AssertionError("a message is no post to favourite")
except MastodonNotFoundError:
    pass

deleted = ada.status_delete(made[1].id)
assert deleted.text == "post 1", deleted
try:
    ada.status(made[1].id)
    raise AssertionError("a deleted post is not found")
except MastodonNotFoundError:
    pass

# Murmur is invite-only and public-only: refused with a reason, not dropped.
try:
    ada.status_post("secret", visibility="private")
    raise AssertionError("a private post is refused")
except MastodonAPIError as refusal:
    assert "public" in str(refusal), refusal

ada.account_block(bob_me.id)
try:
    bob.status(first.id)
    raise AssertionError("a blocked member's post is hidden")
except MastodonNotFoundError:
    pass

# Push: the token's subscription, with the keys Mastodon.py makes; its alerts change in place.
private_keys, public_keys = ada.push_subscription_generate_keys()
subscription = ada.push_subscription_set(
    os.environ["MURMUR_PUSH_ENDPOINT"], public_keys, favourite_events=True, mention_events=True, follow_events=False
)
assert subscription.server_key == ada.instance_v2().configuration.vapid.public_key, subscription
assert (subscription.alerts.favourite, subscription.alerts.mention, subscription.alerts.follow) == (True, True, False)
changed = ada.push_subscription_update(favourite_events=False, follow_events=True)
assert (changed.alerts.favourite, changed.alerts.follow) == (False, True), changed
assert ada.push_subscription().endpoint == os.environ["MURMUR_PUSH_ENDPOINT"]
ada.push_subscription_delete()
try:
    ada.push_subscription()
    raise AssertionError("a deleted subscription is not found")
except MastodonNotFoundError:
    pass

print("Mastodon.py: every check passed")

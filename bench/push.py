#!/usr/bin/env python3
"""Holds Web Push subscriptions and measures how fast a like's push reaches the push service
(docs/push.md).

Usage: bench/push.py BASE_URL SESSIONS_TSV SUBSCRIPTIONS SECONDS [PROBES_PER_SECOND]
(SIGINT ends the probing early; the figures are printed either way.)

Runs a local push service (it answers 201 and notes when each push arrived; it does not
decrypt: tests/api/push.rs checks what pushes say), subscribes SUBSCRIPTIONS members of
SESSIONS_TSV (the file `murmur seed --sessions-out` writes) to it, one endpoint each, then for
SECONDS, PROBES_PER_SECOND times a second, one member likes a post of a subscribed member and
the time from the like's answer to the push's arrival is recorded. The server must allow the
push service's address (MURMUR_OUTBOUND_ALLOW=127.0.0.1; bench/run.sh --push sets it). Prints
one line of JSON: subscriptions, probes, delivered, and the delay's p50/p99/max in ms.
"""
import asyncio
import json
import random
import signal
import sys
import time
import urllib.parse

from live import percentile, request

# A browser's keys (a point of P-256 and a 16-byte secret): the server checks them, not who
# holds the private half.
P256DH = "BEMRqX1INEDBfYUW5ArobdeAKeOY6dm9xsNITdkXt4LLjQEMTwRSHN1PV64z5DvMEP3yPt_FYapJkOthLbgxQTs"
AUTH = "_ordMnz7uTCmrpBTeUV4Bw"


class PushService:
    """Answers every push 201 and wakes whoever waits for a push to that member's endpoint."""

    def __init__(self):
        self.waiters = {}
        self.received = 0

    async def handle(self, reader, writer):
        try:
            while True:
                request_line = await reader.readline()
                if not request_line:
                    break
                length = 0
                while (line := await reader.readline()) not in (b"\r\n", b""):
                    name, _, value = line.decode("latin-1").partition(":")
                    if name.strip().lower() == "content-length":
                        length = int(value.strip())
                await reader.readexactly(length)
                arrived = time.perf_counter()
                self.received += 1
                member = int(request_line.split(b" ")[1].rsplit(b"/", 1)[1])
                waiter = self.waiters.pop(member, None)
                if waiter and not waiter.done():
                    waiter.set_result(arrived)
                writer.write(b"HTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n")
                await writer.drain()
        except (ConnectionError, OSError, asyncio.IncompleteReadError, ValueError):
            pass
        finally:
            writer.close()


async def main():
    base, sessions_file, count, seconds = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
    rate = float(sys.argv[5]) if len(sys.argv) > 5 else 20
    url = urllib.parse.urlparse(base)
    host, port = url.hostname, url.port
    sessions = [line.split("\t") for line in open(sessions_file).read().splitlines() if line]
    if len(sessions) < count:
        sys.exit(f"{sessions_file} has {len(sessions)} sessions; {count} subscriptions need as many members")
    service = PushService()
    server = await asyncio.start_server(service.handle, "127.0.0.1", 0)
    service_port = server.sockets[0].getsockname()[1]

    subscribed = {}
    for token, member, username, _ in sessions[:count]:
        body = json.dumps(
            {
                "endpoint": f"http://127.0.0.1:{service_port}/push/{member}",
                "keys": {"p256dh": P256DH, "auth": AUTH},
                "policy": "all",
            }
        ).encode()
        status, answer = await request(host, port, "POST", "/api/push/subscriptions", token, body)
        if status != 201:
            sys.exit(f"subscribing member {member} answered {status}: {answer[:200]!r}")
        subscribed[int(member)] = username
    print(f"subscribed {len(subscribed)}", file=sys.stderr, flush=True)
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGINT, stop.set)

    delays, probes, delivered = [], 0, 0
    members = list(subscribed)
    end = time.time() + seconds
    while time.time() < end and not stop.is_set():
        author = random.choice(members)
        liker_token, liker, _, _ = random.choice(sessions)
        if int(liker) == author or author in service.waiters:
            continue
        status, body = await request(host, port, "GET", f"/api/users/{subscribed[author]}/posts?limit=5", liker_token)
        posts = json.loads(body) if status == 200 else []
        posts = [p for p in posts if p.get("author", {}).get("id") == author and not p.get("repostOfId")]
        if not posts:
            continue
        post = random.choice(posts)["id"]
        waiter = asyncio.get_running_loop().create_future()
        service.waiters[author] = waiter
        status, _ = await request(host, port, "POST", f"/api/posts/{post}/like", liker_token)
        answered = time.perf_counter()
        if status != 200:
            service.waiters.pop(author, None)
            continue
        probes += 1
        try:
            received = await asyncio.wait_for(waiter, timeout=10)
            delivered += 1
            delays.append(max(0.0, received - answered) * 1000)
        except asyncio.TimeoutError:
            service.waiters.pop(author, None)
        await asyncio.sleep(max(0.0, 1 / rate - 0.001))
    print(
        json.dumps(
            {
                "subscriptions": len(subscribed),
                "probes": probes,
                "delivered": delivered,
                "pushes_received": service.received,
                "p50_ms": round(percentile(delays, 50), 1) if delays else None,
                "p99_ms": round(percentile(delays, 99), 1) if delays else None,
                "max_ms": round(max(delays), 1) if delays else None,
            }
        )
    )
    server.close()


if __name__ == "__main__":
    asyncio.run(main())

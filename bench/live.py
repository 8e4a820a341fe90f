#!/usr/bin/env python3
"""Holds live event streams open and measures how fast events reach them (docs/live.md).

Usage: bench/live.py BASE_URL SESSIONS_TSV STREAMS SECONDS [PROBES_PER_SECOND]
(SIGINT ends the probing early; the figures are printed either way.)

Opens STREAMS concurrent `GET /api/events` streams, one per member of SESSIONS_TSV (the file
`murmur seed --sessions-out` writes: token, user id, username, following), then for SECONDS
keeps them open while, PROBES_PER_SECOND times a second, one member likes a post of another
member who holds a stream and the time from the like's answer to that member's `notification`
event is recorded. Prints one line of JSON: streams held, streams lost, probes, delivered, and
the delivery latency's p50/p99/max in ms. Run it beside the other load (bench/run.sh --live).
"""
import asyncio
import json
import random
import resource
import signal
import sys
import time
import urllib.parse


def percentile(values, p):
    if not values:
        return None
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


class Stream:
    """One event stream: counts `notification` events and wakes whoever waits for the next."""

    def __init__(self, member):
        self.member = member
        self.waiter = None
        self.open = False

    async def run(self, host, port, token):
        try:
            reader, writer = await asyncio.open_connection(host, port)
            writer.write(
                (
                    f"GET /api/events HTTP/1.1\r\nHost: {host}:{port}\r\nAccept: text/event-stream\r\n"
                    f"Cookie: murmur_session={token}\r\n\r\n"
                ).encode()
            )
            await writer.drain()
            status = await reader.readline()
            if b" 200 " not in status:
                return
            while (await reader.readline()) not in (b"\r\n", b""):
                pass
            self.open = True
            while True:
                line = await reader.readline()
                if not line:
                    break
                if b"event: notification" in line or b"event:notification" in line:
                    if self.waiter and not self.waiter.done():
                        self.waiter.set_result(time.perf_counter())
        except (ConnectionError, OSError):
            pass
        finally:
            self.open = False


async def request(host, port, method, path, token, body=b""):
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(
        (
            f"{method} {path} HTTP/1.1\r\nHost: {host}:{port}\r\nCookie: murmur_session={token}\r\n"
            f"X-Requested-With: murmur\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\n"
            "Connection: close\r\n\r\n"
        ).encode()
        + body
    )
    await writer.drain()
    data = await reader.read()
    writer.close()
    head, _, payload = data.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    if b"chunked" in head.lower():
        # The answer's chunks, joined.
        out, rest = b"", payload
        while rest:
            size, _, rest = rest.partition(b"\r\n")
            n = int(size, 16)
            if n == 0:
                break
            out, rest = out + rest[:n], rest[n + 2 :]
        payload = out
    return status, payload


async def main():
    base, sessions_file, streams, seconds = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
    rate = float(sys.argv[5]) if len(sys.argv) > 5 else 20
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    url = urllib.parse.urlparse(base)
    host, port = url.hostname, url.port
    sessions = [line.split("\t") for line in open(sessions_file).read().splitlines() if line]
    if len(sessions) < streams:
        sys.exit(f"{sessions_file} has {len(sessions)} sessions; {streams} streams need as many members")
    holders = sessions[:streams]
    by_member = {}
    tasks = []
    for token, member, username, _ in holders:
        stream = Stream(int(member))
        by_member[int(member)] = (stream, token, username)
        tasks.append(asyncio.create_task(stream.run(host, port, token)))
        if len(tasks) % 500 == 0:
            await asyncio.sleep(0.05)  # do not open them all in one burst
    deadline = time.time() + 60
    while sum(s.open for s, _, _ in by_member.values()) < streams and time.time() < deadline:
        await asyncio.sleep(0.5)
    opened = sum(s.open for s, _, _ in by_member.values())
    print(f"opened {opened}", file=sys.stderr, flush=True)
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGINT, stop.set)

    latencies, probes, delivered = [], 0, 0
    members = list(by_member)
    end = time.time() + seconds
    while time.time() < end and not stop.is_set():
        author = random.choice(members)
        stream, _, username = by_member[author]
        liker_token, liker, _, _ = random.choice(sessions)
        if int(liker) == author:
            continue
        status, body = await request(host, port, "GET", f"/api/users/{username}/posts?limit=5", liker_token)
        posts = json.loads(body) if status == 200 else []
        posts = [p for p in posts if p.get("author", {}).get("id") == author and not p.get("repostOfId")]
        if not posts or not stream.open:
            continue
        post = random.choice(posts)["id"]
        stream.waiter = asyncio.get_running_loop().create_future()
        status, _ = await request(host, port, "POST", f"/api/posts/{post}/like", liker_token)
        answered = time.perf_counter()
        if status != 200:
            continue
        probes += 1
        try:
            received = await asyncio.wait_for(stream.waiter, timeout=5)
            delivered += 1
            latencies.append(max(0.0, received - answered) * 1000)
        except asyncio.TimeoutError:
            pass
        await asyncio.sleep(max(0.0, 1 / rate - 0.001))
    held = sum(s.open for s, _, _ in by_member.values())
    print(
        json.dumps(
            {
                "streams_opened": opened,
                "streams_held_at_end": held,
                "probes": probes,
                "delivered": delivered,
                "p50_ms": round(percentile(latencies, 50), 1) if latencies else None,
                "p99_ms": round(percentile(latencies, 99), 1) if latencies else None,
                "max_ms": round(max(latencies), 1) if latencies else None,
            }
        )
    )
    for task in tasks:
        task.cancel()


if __name__ == "__main__":
    asyncio.run(main())

#!/usr/bin/env python3
"""Murmur's fault run: a mixed write load under injected faults, then a check that nothing
acknowledged was lost (issue 42, "Faults under load"; docs/faults.md).

Usage:
  nice -n 19 python3 bench/faults.py [--binary PATH] [--duration 60] [--seed 1] [--pgbouncer] [--keep]
  nice -n 19 python3 bench/faults.py --sqlite [--binary PATH] [--duration 60]

PostgreSQL mode (the default) starts its own primary and streaming replica (ports 55432 and
55433; the system's PostgreSQL is never touched), seeds a small network with `murmur seed`,
serves it with three `murmur serve` processes behind Caddy (one reaches the database through a
TCP proxy in this script), loads it through Caddy and meanwhile kills a process (-9), restarts
the primary (fast), cuts the proxied process's database connections and stops the replica.
With --pgbouncer the processes reach the primary through a PgBouncer in transaction mode
(`--database-pooler pgbouncer`; the live bus on the direct URL), the proxied one through the
proxy in front of it.
--sqlite serves one process on SQLite in a tmpfs of its own, kills it (-9) and fills the disk.
Afterwards it checks the database against every write answered 2xx, prints a report and exits
1 when it found an anomaly (2 when the run itself could not be set up).

Needs: a murmur binary (default: the release build at target/release/murmur), PostgreSQL 15's
server programs, psql, caddy, pgbouncer for --pgbouncer (scripts/install-test-deps.sh installs them); run as root or as
a user who may run PostgreSQL (as root the clusters belong to the postgres user) and, for
--sqlite, mount a tmpfs. Only Python's standard library.
"""

import argparse
import collections
import http.client
import json
import os
import random
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import uuid

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PG_BIN = os.environ.get("MURMUR_TEST_PG_BIN", "/usr/lib/postgresql/15/bin")
T0 = time.monotonic()


def log(message):
    print(f"faults [{time.monotonic() - T0:7.1f}s] {message}", file=sys.stderr, flush=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until(what, check, timeout=60.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if check():
                return
        except Exception:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"timed out waiting for {what}")


def healthy(port, path="/healthz"):
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
        conn.request("GET", path)
        ok = conn.getresponse().status == 200
        conn.close()
        return ok
    except OSError:
        return False


# --- PostgreSQL: a primary and its streaming replica of our own ------------------------------


class Clusters:
    """A primary and a hot standby in `dir`, as tests/api/replicas.rs makes them."""

    def __init__(self, dir, primary_port, replica_port):
        self.dir, self.primary_port, self.replica_port = dir, primary_port, replica_port
        os.makedirs(dir)
        if os.getuid() == 0:
            # initdb refuses root: the clusters belong to the database's own system user.
            shutil.chown(dir, "postgres", "postgres")

    def program(self, name, *args, check=True):
        command = [os.path.join(PG_BIN, name), *args]
        if os.getuid() == 0:
            command = ["runuser", "-u", "postgres", "--", *command]
        result = subprocess.run(command, capture_output=True, text=True)
        if check and result.returncode != 0:
            raise RuntimeError(f"{name} {' '.join(args)} failed: {result.stdout}{result.stderr}")
        return result

    def data(self, cluster):
        return os.path.join(self.dir, cluster)

    def pg_ctl(self, cluster, action, *extra):
        log_file = os.path.join(self.dir, f"{cluster}.log")
        return self.program("pg_ctl", "-w", "-t", "60", "-D", self.data(cluster), "-l", log_file, action, *extra)

    def start(self):
        primary = self.data("primary")
        self.program("initdb", "-A", "trust", "-U", "postgres", "--no-sync", "-D", primary)
        # fsync off: the faults here are processes', not the machine's, and the disk is shared.
        settings = (
            f"\nport = {self.primary_port}\nlisten_addresses = '127.0.0.1'\n"
            f"unix_socket_directories = '{self.dir}'\nwal_level = replica\nmax_wal_senders = 4\n"
            "hot_standby = on\nfsync = off\nmax_connections = 100\nshared_buffers = 32MB\n"
        )
        self.append(primary, settings)
        self.pg_ctl("primary", "start")
        self.psql("postgres", "CREATE DATABASE murmur")
        replica = self.data("replica")
        # A fast checkpoint: the default spread one kept the copy waiting for a minute and a half.
        self.program("pg_basebackup", "-h", "127.0.0.1", "-U", "postgres", "-R", "-X", "stream",
                     "--checkpoint=fast", "--no-sync", "-p", str(self.primary_port), "-D", replica)
        self.append(replica, f"\nport = {self.replica_port}\n")
        self.pg_ctl("replica", "start")

    def append(self, data_dir, text):
        with open(os.path.join(data_dir, "postgresql.conf"), "a") as f:
            f.write(text)

    def url(self, port, database="murmur"):
        return f"postgres://postgres@127.0.0.1:{port}/{database}"

    def psql(self, database, sql):
        result = subprocess.run(
            ["psql", "-X", "-q", "-tA", "-F", "\t", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1",
             "-p", str(self.primary_port), "-U", "postgres", "-d", database, "-c", sql],
            capture_output=True, text=True)
        if result.returncode != 0:
            raise RuntimeError(f"psql failed: {result.stderr}\n{sql}")
        return [line.split("\t") for line in result.stdout.splitlines() if line != ""]

    def stop(self):
        for cluster in ("replica", "primary"):
            self.program("pg_ctl", "-w", "-D", self.data(cluster), "stop", "-m", "immediate", check=False)


class SqliteReader:
    """Reads the SQLite database the running process writes (WAL mode lets it)."""

    def __init__(self, path):
        self.path = path

    def query(self, sql):
        conn = sqlite3.connect(self.path, timeout=30)
        try:
            return [["" if v is None else str(v) for v in row] for row in conn.execute(sql)]
        finally:
            conn.close()


# --- PgBouncer ---------------------------------------------------------------------------------


class Pgbouncer:
    """Debian's PgBouncer in transaction mode before the primary, with fewer server connections
    than the processes' pools hold, so their transactions take turns (as tests/api/poolers.rs)."""

    def __init__(self, work, upstream_port):
        self.dir = os.path.join(work, "pgbouncer")
        os.makedirs(self.dir)
        self.port = free_port()
        with open(os.path.join(self.dir, "users.txt"), "w") as f:
            f.write('"postgres" ""\n')
        ini = os.path.join(self.dir, "pgbouncer.ini")
        with open(ini, "w") as f:
            f.write(f"[databases]\n* = host=127.0.0.1 port={upstream_port}\n\n[pgbouncer]\n"
                    f"listen_addr = 127.0.0.1\nlisten_port = {self.port}\nunix_socket_dir =\n"
                    f"auth_type = trust\nauth_file = {self.dir}/users.txt\npool_mode = transaction\n"
                    "default_pool_size = 10\nmax_client_conn = 500\nserver_login_retry = 1\n"
                    "ignore_startup_parameters = extra_float_digits\n")
        os.chmod(self.dir, 0o755)
        command = ["/usr/sbin/pgbouncer", ini]
        if os.getuid() == 0:
            # PgBouncer refuses to run as root.
            command = ["/usr/sbin/pgbouncer", "-u", "postgres", ini]
        self.log_file = open(os.path.join(self.dir, "pgbouncer.log"), "w")
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=self.log_file)
        wait_until("pgbouncer", lambda: socket.create_connection(("127.0.0.1", self.port), timeout=1).close() or True)

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)
        self.log_file.close()


# --- A TCP proxy that can cut -----------------------------------------------------------------


class CuttableProxy:
    """Forwards a local port to PostgreSQL; `cut(seconds)` closes every connection through it
    and refuses new ones (accepted and closed at once) until the time is up."""

    def __init__(self, upstream_port):
        self.upstream_port = upstream_port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.lock = threading.Lock()
        self.open = set()
        self.refuse_until = 0.0
        threading.Thread(target=self.accept_loop, daemon=True).start()

    def accept_loop(self):
        while True:
            client, _ = self.listener.accept()
            if time.monotonic() < self.refuse_until:
                client.close()
                continue
            try:
                upstream = socket.create_connection(("127.0.0.1", self.upstream_port), timeout=5)
                upstream.settimeout(None)
            except OSError:
                client.close()
                continue
            with self.lock:
                self.open.update((client, upstream))
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self.pump, args=(a, b), daemon=True).start()

    def pump(self, source, sink):
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        for s in (source, sink):
            self.close(s)

    def close(self, s):
        with self.lock:
            self.open.discard(s)
        try:
            s.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        s.close()

    def cut(self, seconds):
        self.refuse_until = time.monotonic() + seconds
        with self.lock:
            victims = list(self.open)
        for s in victims:
            self.close(s)
        return len(victims) // 2


# --- Murmur processes and Caddy ----------------------------------------------------------------


class Murmur:
    """One `murmur serve` process; `kill9` and `start` again as often as the run wants."""

    def __init__(self, name, binary, work, env, public_url):
        self.name, self.binary, self.env, self.public_url = name, binary, env, public_url
        self.port = free_port()
        self.data_dir = env.get("MURMUR_DATA_DIR") or os.path.join(work, name)
        self.env["MURMUR_DATA_DIR"] = self.data_dir
        os.makedirs(self.data_dir, exist_ok=True)
        self.log_path = os.path.join(work, f"{name}.log")
        self.process = None

    def start(self, timeout=60):
        with open(self.log_path, "a") as log_file:
            log_file.write(f"===== start at {time.monotonic() - T0:.1f}s =====\n")
            log_file.flush()
            self.process = subprocess.Popen(
                [self.binary, "serve", "--addr", f"127.0.0.1:{self.port}", "--public-url", self.public_url,
                 "--trusted-proxies", "127.0.0.1", "--link-previews=false"],
                env=self.env, stdout=log_file, stderr=subprocess.STDOUT)
        wait_until(f"{self.name} to answer /healthz", lambda: self.alive() and healthy(self.port), timeout)

    def alive(self):
        return self.process is not None and self.process.poll() is None

    def kill9(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self):
        if self.alive():
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill9()

    def log_lines(self, *needles):
        with open(self.log_path, errors="replace") as f:
            return [line.rstrip() for line in f if any(n in line for n in needles)]


class Caddy:
    def __init__(self, work, port, upstream_ports):
        self.port = port
        dir = os.path.join(work, "caddy")
        os.makedirs(dir)
        upstreams = " ".join(f"127.0.0.1:{p}" for p in upstream_ports)
        # A dial that fails (a killed process) is tried on another upstream for up to 5 s, and
        # that upstream is left out for 3 s: what an operator's Caddy would do (docs/deploy.md).
        caddyfile = (
            f"{{\n\tadmin off\n\tauto_https off\n\tstorage file_system {dir}/storage\n}}\n\n"
            f"http://127.0.0.1:{self.port} {{\n\tbind 127.0.0.1\n\treverse_proxy {upstreams} {{\n"
            "\t\tlb_policy round_robin\n\t\tlb_try_duration 5s\n\t\tfail_duration 3s\n"
            "\t\theader_up -Forwarded\n\t\tflush_interval -1\n\t}\n}\n")
        path = os.path.join(dir, "Caddyfile")
        with open(path, "w") as f:
            f.write(caddyfile)
        env = dict(os.environ, HOME=dir, XDG_CONFIG_HOME=f"{dir}/config", XDG_DATA_HOME=f"{dir}/data")
        with open(os.path.join(work, "caddy.log"), "w") as log_file:
            self.process = subprocess.Popen(["caddy", "run", "--adapter", "caddyfile", "--config", path],
                                            env=env, stdout=log_file, stderr=subprocess.STDOUT)
        wait_until("caddy to pass requests on", lambda: healthy(self.port))

    def stop(self):
        self.process.terminate()
        self.process.wait()


# --- The load --------------------------------------------------------------------------------


class Ledger:
    """Everything the load did, kept for the checks: acknowledged writes by kind, and every
    answer's status (0: no answer at all)."""

    def __init__(self):
        self.lock = threading.Lock()
        self.acked = collections.Counter()
        self.statuses = collections.Counter()
        self.posts = []            # dicts: key, member, id, kind, reply_to, options, acked_at
        self.attempted_keys = []   # (member, key) of every post tried, acknowledged or not
        self.likes = []            # (member, post)
        self.follow_events = collections.defaultdict(list)  # (a, b) -> [(kind, acked, at)]
        self.votes = []            # (member, post, position)
        self.edits = collections.defaultdict(lambda: {"acked": 0, "tried": 0})  # post id -> numbers
        self.live_anomalies = []   # seen during the load (read-your-writes)

    def answer(self, kind, status):
        with self.lock:
            self.statuses[(kind, status)] += 1
            if 200 <= status < 300:
                self.acked[kind] += 1


class Member:
    def __init__(self, token, user_id, username):
        self.token, self.id, self.username = token, int(user_id), username
        self.posts = []    # (id, key) of own acknowledged posts without a poll (to edit)
        self.edit_numbers = collections.Counter()


class Load:
    """Worker threads, each driving its own members one request at a time through Caddy, so a
    member's requests (an edit and the next) never race each other."""

    def __init__(self, port, members, ledger, seeded_posts, member_ids, threads, deadline):
        self.port, self.ledger, self.deadline = port, ledger, deadline
        self.seeded_posts, self.member_ids = seeded_posts, member_ids
        self.polls = []  # (post id, [options]) acknowledged, for votes
        self.recent_posts = []  # acknowledged posts of the run, for likes and replies
        self.groups = [members[i::threads] for i in range(threads)]

    def run(self):
        workers = [threading.Thread(target=self.worker, args=(group,)) for group in self.groups if group]
        for w in workers:
            w.start()
        for w in workers:
            w.join()

    def request(self, conn_holder, member, method, path, body=None, headers=None):
        """One HTTP request as `member`; answers (status, parsed JSON or None). Status 0: no
        answer (connection refused or broken, timeout)."""
        all_headers = {"Cookie": f"murmur_session={member.token}", "X-Requested-With": "murmur"}
        if body is not None:
            all_headers["Content-Type"] = "application/json"
        all_headers.update(headers or {})
        try:
            if conn_holder[0] is None:
                conn_holder[0] = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            conn = conn_holder[0]
            conn.request(method, path, body=None if body is None else json.dumps(body), headers=all_headers)
            response = conn.getresponse()
            data = response.read()
            try:
                parsed = json.loads(data) if data else None
            except ValueError:
                parsed = None
            return response.status, parsed
        except (OSError, http.client.HTTPException):
            if conn_holder[0] is not None:
                conn_holder[0].close()
            conn_holder[0] = None
            return 0, None

    def with_retries(self, conn, member, kind, method, path, body=None, headers=None, attempts=8):
        """Sends again after no answer or a 5xx, as a client would (the same body and
        Idempotency-Key); answers the last (status, body)."""
        for attempt in range(attempts):
            status, parsed = self.request(conn, member, method, path, body, headers)
            self.ledger.answer(kind, status)
            if status != 0 and status < 500:
                return status, parsed
            if time.monotonic() > self.deadline + 20:
                break
            time.sleep(min(0.2 * 2 ** attempt, 3))
        return status, parsed

    def a_post(self):
        with self.ledger.lock:
            if self.recent_posts and random.random() < 0.6:
                return random.choice(self.recent_posts)
        return random.choice(self.seeded_posts)

    def worker(self, members):
        conn = [None]
        rng = random.Random()
        while time.monotonic() < self.deadline:
            member = rng.choice(members)
            roll = rng.random()
            if roll < 0.22:
                self.post(conn, member, poll=rng.random() < 0.25)
            elif roll < 0.32:
                self.post(conn, member, reply_to=self.a_post())
            elif roll < 0.52:
                self.like(conn, member)
            elif roll < 0.62:
                self.follow(conn, member, unfollow=rng.random() < 0.2)
            elif roll < 0.72:
                self.vote(conn, member)
            elif roll < 0.80:
                self.edit(conn, member)
            else:
                self.read(conn, member)

    def post(self, conn, member, poll=False, reply_to=None):
        key = uuid.uuid4().hex
        kind = "reply" if reply_to else ("poll" if poll else "post")
        body = {"content": f"fault-run {key} {kind} by {member.username}"}
        options = []
        if poll:
            options = [f"option {i} {key[:6]}" for i in range(random.randint(2, 4))]
            body["pollOptions"] = options
            body["pollDurationHours"] = 24
        if reply_to:
            body["replyToId"] = reply_to
        with self.ledger.lock:
            self.ledger.attempted_keys.append((member.id, key))
        status, parsed = self.with_retries(conn, member, kind, "POST", "/api/posts", body, {"Idempotency-Key": key})
        if not (200 <= status < 300 and parsed and "id" in parsed):
            return
        post_id = parsed["id"]
        with self.ledger.lock:
            self.ledger.posts.append({"key": key, "member": member.id, "id": post_id, "kind": kind,
                                      "reply_to": reply_to, "options": options, "acked_at": time.monotonic()})
            self.recent_posts.append(post_id)
            if poll:
                self.polls.append((post_id, options))
        if not poll and not reply_to:
            member.posts.append((post_id, key))
        # Read-your-writes: the author opens what they just posted (replicas must not hide it).
        if random.random() < 0.3:
            status, _ = self.request(conn, member, "GET", f"/api/posts/{post_id}/thread")
            self.ledger.answer("read-own-post", status)
            if status == 404:
                with self.ledger.lock:
                    self.ledger.live_anomalies.append(
                        f"read-your-writes: {member.username} got 404 for their post {post_id} right after its 201")

    def like(self, conn, member):
        post_id = self.a_post()
        status, _ = self.with_retries(conn, member, "like", "POST", f"/api/posts/{post_id}/like", attempts=4)
        if 200 <= status < 300:
            with self.ledger.lock:
                self.ledger.likes.append((member.id, post_id))

    def follow(self, conn, member, unfollow=False):
        other = random.choice(self.member_ids)
        if other == member.id:
            return
        if unfollow:
            kind, method, path, body = "unfollow", "DELETE", f"/api/follows/{other}", None
        else:
            kind, method, path, body = "follow", "POST", "/api/follows", {"followingId": other}
        # Recorded before the answer too: an unanswered unfollow may or may not have happened.
        status, _ = self.with_retries(conn, member, kind, method, path, body, attempts=4)
        with self.ledger.lock:
            self.ledger.follow_events[(member.id, other)].append((kind, 200 <= status < 300, time.monotonic()))

    def vote(self, conn, member):
        with self.ledger.lock:
            if not self.polls:
                return
            post_id, options = random.choice(self.polls)
        position = random.randrange(len(options))
        # Not retried: a second vote is refused (409), so only a 2xx says this one counted.
        status, _ = self.request(conn, member, "POST", f"/api/posts/{post_id}/vote", {"option": options[position]})
        self.ledger.answer("vote", status)
        if 200 <= status < 300:
            with self.ledger.lock:
                self.ledger.votes.append((member.id, post_id, position))

    def edit(self, conn, member):
        if not member.posts:
            return
        post_id, key = random.choice(member.posts)
        member.edit_numbers[post_id] += 1
        number = member.edit_numbers[post_id]
        edits = self.ledger.edits[post_id]
        edits["tried"] = number
        status, _ = self.with_retries(conn, member, "edit", "PATCH", f"/api/posts/{post_id}",
                                      {"content": f"fault-run {key} edit {number}"}, attempts=4)
        if 200 <= status < 300:
            edits["acked"] = number

    def read(self, conn, member):
        if random.random() < 0.5:
            status, _ = self.request(conn, member, "GET", "/api/posts/feed?limit=20&offset=0")
        else:
            status, _ = self.request(conn, member, "GET", f"/api/posts/{self.a_post()}/thread")
        self.ledger.answer("read", status)


# --- Faults ---------------------------------------------------------------------------------


class Faults:
    """Injects the run's faults at random moments of the load, each kind at least once."""

    def __init__(self, kinds, actions, start, end, count):
        self.actions, self.log = actions, []
        plan = list(kinds) + [random.choice(kinds) for _ in range(max(0, count - len(kinds)))] if kinds else []
        random.shuffle(plan)
        slot = (end - start) / max(1, len(plan))
        self.plan = [(start + i * slot + random.uniform(0, slot * 0.4), kind) for i, kind in enumerate(plan)]

    def run(self):
        for at, kind in self.plan:
            time.sleep(max(0.0, at - time.monotonic()))
            started = time.monotonic()
            try:
                detail = self.actions[kind]()
            except Exception as e:  # a fault that failed to inject is reported, not fatal
                detail = f"FAILED: {e}"
            self.log.append((started - T0, kind, detail, time.monotonic() - started))
            log(f"fault {kind}: {detail}")


# --- Checks -----------------------------------------------------------------------------------


def ids_sql(ids):
    return ",".join(str(int(i)) for i in ids) or "0"


def counter_mismatches(query):
    """Every counter column against a fresh count: (what, row id, stored, counted)."""
    checks = {
        "users.follower_count": "SELECT u.id, u.follower_count, (SELECT COUNT(*) FROM follows f WHERE f.following_id = u.id) "
                                "FROM users u WHERE u.deleted_at IS NULL",
        "users.following_count": "SELECT u.id, u.following_count, (SELECT COUNT(*) FROM follows f WHERE f.follower_id = u.id) "
                                 "FROM users u WHERE u.deleted_at IS NULL",
        "posts.like_count": "SELECT p.id, p.like_count, (SELECT COUNT(*) FROM likes l WHERE l.post_id = p.id) "
                            "FROM posts p WHERE p.deleted_at IS NULL",
        "posts.reply_count": "SELECT p.id, p.reply_count, (SELECT COUNT(*) FROM posts r WHERE r.reply_to_id = p.id "
                             "AND r.deleted_at IS NULL) FROM posts p WHERE p.deleted_at IS NULL",
        "posts.repost_count": "SELECT p.id, p.repost_count, (SELECT COUNT(*) FROM posts r WHERE r.repost_of_id = p.id) "
                              "FROM posts p WHERE p.deleted_at IS NULL",
        "posts.image_count": "SELECT p.id, p.image_count, (SELECT COUNT(*) FROM post_images i WHERE i.post_id = p.id) "
                             "FROM posts p WHERE p.deleted_at IS NULL",
    }
    found = []
    for what, sql in checks.items():
        for row_id, stored, counted in query(sql):
            if int(stored) != int(counted):
                found.append((what, int(row_id), int(stored), int(counted)))
    return found


def check(query, ledger, baseline, first_run_post):
    """Compares the database with the ledger; answers the anomalies, each one line."""
    anomalies = list(ledger.live_anomalies)

    # Posts: every acknowledged one present, once, as acknowledged; no key made two posts.
    rows = query(f"SELECT id, author_id, content, CASE WHEN deleted_at IS NULL THEN 0 ELSE 1 END, "
                 f"COALESCE(reply_to_id, 0), COALESCE(poll_expires_at, 0) FROM posts WHERE id >= {first_run_post}")
    by_id = {int(r[0]): r for r in rows}
    by_key = collections.defaultdict(list)
    for r in rows:
        words = r[2].split(" ")
        if len(words) > 1 and words[0] == "fault-run":
            by_key[(int(r[1]), words[1])].append(int(r[0]))
    for member, key in ledger.attempted_keys:
        if len(by_key[(member, key)]) > 1:
            anomalies.append(f"duplicate post: member {member}'s Idempotency-Key {key} made posts {by_key[(member, key)]}")
    for p in ledger.posts:
        row = by_id.get(p["id"])
        if row is None:
            anomalies.append(f"lost post: {p['kind']} {p['id']} by member {p['member']} (key {p['key']}) answered 2xx, not in posts")
            continue
        if int(row[1]) != p["member"] or row[2].split(" ")[1] != p["key"]:
            anomalies.append(f"wrong post: {p['id']} answered to member {p['member']} for key {p['key']} holds author {row[1]}, text {row[2]!r}")
        if row[3] == "1":
            anomalies.append(f"deleted post: {p['id']} (acknowledged, never deleted by the load) is deleted")
        if p["reply_to"] and int(row[4]) != p["reply_to"]:
            anomalies.append(f"wrong reply: {p['id']} should reply to {p['reply_to']}, replies to {row[4]}")
        if p["options"] and int(row[5]) == 0:
            anomalies.append(f"lost poll: post {p['id']} was made with a poll and has none")
    polls = [p for p in ledger.posts if p["options"]]
    if polls:
        option_rows = query(f"SELECT post_id, position, text FROM poll_options WHERE post_id IN ({ids_sql(p['id'] for p in polls)})")
        options = collections.defaultdict(dict)
        for post_id, position, text in option_rows:
            options[int(post_id)][int(position)] = text
        for p in polls:
            if options[p["id"]] != dict(enumerate(p["options"])):
                anomalies.append(f"poll options of {p['id']}: {options[p['id']]} instead of {p['options']}")

    # Edits: the text is the last acknowledged edit's, or a later one that was sent.
    for post_id, edit in ledger.edits.items():
        row = by_id.get(post_id)
        if row is None:
            continue
        words = row[2].split(" ")
        number = int(words[3]) if len(words) == 4 and words[2] == "edit" else 0
        if number < edit["acked"] or number > edit["tried"]:
            anomalies.append(f"edit lost: post {post_id}'s edit {edit['acked']} was acknowledged "
                             f"({edit['tried']} sent) but its text is {row[2]!r}")

    # Likes and votes acknowledged are there.
    likes = {(int(u), int(p)) for u, p in query("SELECT user_id, post_id FROM likes")}
    for member, post_id in ledger.likes:
        if (member, post_id) not in likes:
            anomalies.append(f"lost like: member {member} liked post {post_id} (2xx), no row")
    votes = {(int(p), int(u)): int(pos) for p, u, pos in query("SELECT post_id, user_id, position FROM poll_votes")}
    for member, post_id, position in ledger.votes:
        if votes.get((post_id, member)) != position:
            anomalies.append(f"lost vote: member {member} voted option {position} in poll {post_id} (2xx), "
                             f"the row says {votes.get((post_id, member))}")

    # Follows: a pair's last request, when acknowledged, says whether the row is there.
    follows = {(int(a), int(b)) for a, b in query("SELECT follower_id, following_id FROM follows")}
    for pair, events in ledger.follow_events.items():
        kind, acked, _ = events[-1]
        if acked and (kind == "follow") != (pair in follows):
            anomalies.append(f"lost {kind}: member {pair[0]} → {pair[1]} acknowledged last, but the follow row is "
                             f"{'there' if pair in follows else 'missing'}")

    # Counters against fresh counts, but those already off after the seed (reported apart).
    for what, row_id, stored, counted in counter_mismatches(query):
        if (what, row_id) not in baseline["counters"]:
            anomalies.append(f"counter: {what} of {row_id} is {stored}, a fresh count says {counted}")

    # Friends timelines: a post acknowledged after its author was followed (and never unfollowed
    # since) is in the follower's home timeline, or below its floor (read from posts then).
    followed_since = {pair: -1.0 for pair in baseline["follows"]}
    for pair, events in ledger.follow_events.items():
        if any(kind == "unfollow" for kind, _, _ in events):
            followed_since.pop(pair, None)
            continue
        acked = [at for kind, acked, at in events if acked]
        if pair not in followed_since and acked:
            followed_since[pair] = acked[0]
    followers_of = collections.defaultdict(list)
    for (a, b), since in followed_since.items():
        followers_of[b].append((a, since))
    timeline = {(int(m), int(p)) for m, p in query(f"SELECT member_id, post_id FROM home_timeline WHERE post_id >= {first_run_post}")}
    floors = {int(u): int(f) for u, f in query("SELECT id, home_floor FROM users")}
    for p in ledger.posts:
        if p["reply_to"]:
            continue  # replies are not in the Friends feed
        readers = [(p["member"], -1.0)] + followers_of[p["member"]]
        for reader, since in readers:
            if p["acked_at"] > since and (reader, p["id"]) not in timeline and p["id"] >= floors.get(reader, 0):
                anomalies.append(f"timeline: member {reader}'s home timeline lacks post {p['id']} by {p['member']} "
                                 f"(followed {'since the seed' if since < 0 else f'at {since - T0:.1f}s'}, "
                                 f"post acknowledged at {p['acked_at'] - T0:.1f}s)")

    # Notifications point at live posts and members.
    for n_id, n_type, post_id, why in query(
            "SELECT n.id, n.type, n.post_id, CASE WHEN p.id IS NULL THEN 'missing' ELSE 'deleted' END "
            "FROM notifications n LEFT JOIN posts p ON p.id = n.post_id "
            "WHERE n.post_id <> 0 AND (p.id IS NULL OR p.deleted_at IS NOT NULL)"):
        anomalies.append(f"notification {n_id} ({n_type}) points at a {why} post {post_id}")
    for n_id, n_type, who in query(
            "SELECT n.id, n.type, u.id FROM notifications n JOIN users u ON u.id IN (n.actor_id, n.recipient_id) "
            "WHERE u.deleted_at IS NOT NULL"):
        anomalies.append(f"notification {n_id} ({n_type}) names deleted member {who}")
    return anomalies


def baseline_of(query):
    """What the seed left: counters already off (not the run's doing) and the follows."""
    return {"counters": {(what, row_id) for what, row_id, _, _ in counter_mismatches(query)},
            "follows": {(int(a), int(b)) for a, b in query("SELECT follower_id, following_id FROM follows")}}


# --- The runs -------------------------------------------------------------------------------


def seed(binary, env, work, members, posts, seed_value):
    sessions = os.path.join(work, "sessions.tsv")
    subprocess.run([binary, "seed", "--members", str(members), "--posts", str(posts), "--seed", str(seed_value),
                    "--sessions", str(members), "--sessions-out", sessions, "--quiet"],
                   env=env, check=True, stdout=subprocess.DEVNULL)
    with open(sessions) as f:
        return [Member(*line.split("\t")[:3]) for line in f if line.strip()]


def settle(query, timeout=90):
    """Waits for the fan-out queue to empty: posts of big accounts reach timelines after the
    answer (docs/feeds.md), so the timeline check waits for them. Answers the anomalies."""
    try:
        wait_until("the fan-out queue to empty",
                   lambda: query("SELECT COUNT(*) FROM timeline_fanouts")[0][0] == "0", timeout)
        return []
    except RuntimeError:
        left = query("SELECT post_id FROM timeline_fanouts")
        return [f"fan-out: {len(left)} posts still queued {timeout} s after the load: {[r[0] for r in left][:20]}"]


READS = ("read", "read-own-post")


def cause_of(line):
    """A log line without its time, request and ids: lines of one cause read alike."""
    line = re.sub(r"^\S+\s+", "", line)              # the time
    line = re.sub(r"request\{[^}]*\}:\s*", "", line)  # the request's span
    return re.sub(r"\b\d+\b", "N", line).strip()


def report(mode, args, ledger, faults_log, anomalies, baseline_counters, logs, work, notes=()):
    """Prints the run's report and keeps it in the working directory (report.md)."""
    lines = []
    say = lines.append
    say(f"\n## Fault run: {mode}, {args.duration:.0f} s of load, {args.members} members, {args.posts} seeded posts\n")
    by_kind = collections.Counter(kind for _, kind, _, _ in faults_log)
    say("Faults injected: " + (", ".join(f"{k} {n}" for k, n in sorted(by_kind.items())) or "none"))
    for at, kind, detail, took in faults_log:
        say(f"  {at:7.1f}s  {kind}: {detail} ({took:.1f} s)")
    for note in notes:
        say(note)
    writes = {k: n for k, n in ledger.acked.items() if k not in READS}
    say(f"\nWrites acknowledged (2xx): {sum(writes.values())}: " + ", ".join(f"{k} {n}" for k, n in sorted(writes.items())))
    say("Reads answered 2xx: " + ", ".join(f"{k} {ledger.acked[k]}" for k in READS))
    non2xx = collections.Counter()
    detail = collections.defaultdict(collections.Counter)
    for (kind, status), n in ledger.statuses.items():
        if not 200 <= status < 300:
            label = "no answer" if status == 0 else str(status)
            non2xx[label] += n
            detail[label][kind] += n
    say("Non-2xx answers: " + (", ".join(f"{s} {n} ({', '.join(f'{k} {c}' for k, c in sorted(detail[s].items()))})"
                                           for s, n in sorted(non2xx.items())) or "none"))
    if baseline_counters:
        say(f"Counters already off after the seed (not counted as anomalies): {len(baseline_counters)}")
    kinds = collections.Counter(a.split(":")[0] for a in anomalies)
    say(f"\nAnomalies: {len(anomalies)}" + (" (" + ", ".join(f"{k} {n}" for k, n in kinds.most_common()) + ")" if kinds else ""))
    for a in anomalies[:200]:
        say(f"  - {a}")
    if len(anomalies) > 200:
        say(f"  ... and {len(anomalies) - 200} more")
    for name, log_lines in logs.items():
        # tower_http's line for each 5xx answer says only its status: the errors say why.
        causes = collections.Counter(cause_of(line) for line in log_lines if "response failed classification" not in line)
        if causes:
            say(f"\nServer log {name}: errors and warnings by cause (count, first line):")
            for cause, n in causes.most_common(12):
                say(f"  {n:5d}  {cause[:300]}")
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    with open(os.path.join(work, "report.md"), "w") as f:
        f.write(text)


def run_postgres(args, work):
    clusters = Clusters(os.path.join(work, "pg"), args.pg_port, args.pg_port + 1)
    murmurs, caddy, bouncer = [], None, None
    try:
        log(f"starting PostgreSQL: primary :{clusters.primary_port}, replica :{clusters.replica_port}")
        clusters.start()
        query = lambda sql: clusters.psql("murmur", sql)
        env = dict(os.environ, DATABASE_URL=clusters.url(clusters.primary_port), RUST_LOG="murmur=info,tower_http=warn",
                   MURMUR_SECRET="fault-run-secret", MURMUR_DATA_DIR=os.path.join(work, "seed-data"))
        env.pop("DATABASE_REPLICA_URL", None)
        log(f"seeding {args.members} members, {args.posts} posts")
        members = seed(args.binary, env, work, args.members, args.posts, args.seed)
        # The processes reach the primary directly or through PgBouncer; the first through the
        # proxy the run can cut, in front of either.
        database_port = clusters.primary_port
        if args.pgbouncer:
            bouncer = Pgbouncer(work, clusters.primary_port)
            database_port = bouncer.port
            env = dict(env, DATABASE_POOLER="pgbouncer", DATABASE_LISTEN_URL=clusters.url(clusters.primary_port))
        proxy = CuttableProxy(database_port)
        caddy_port = free_port()
        for i in range(3):
            db_port = proxy.port if i == 0 else database_port
            process_env = dict(env, DATABASE_URL=clusters.url(db_port), DATABASE_REPLICA_URL=clusters.url(clusters.replica_port),
                               MURMUR_DATA_DIR=os.path.join(work, f"murmur{i}"))
            name = "murmur0-proxied" if i == 0 else f"murmur{i}"
            murmurs.append(Murmur(name, args.binary, work, process_env, f"http://127.0.0.1:{caddy_port}"))
        for m in murmurs:
            m.start()
        caddy = Caddy(work, caddy_port, [m.port for m in murmurs])
        baseline = baseline_of(query)
        first_run_post = int(query("SELECT COALESCE(MAX(id), 0) + 1 FROM posts")[0][0])
        seeded_posts = [int(r[0]) for r in query("SELECT id FROM posts WHERE deleted_at IS NULL AND repost_of_id IS NULL "
                                                 "ORDER BY id DESC LIMIT 2000")]

        def kill9():
            m = random.choice(murmurs)
            m.kill9()
            time.sleep(random.uniform(1, 3))
            m.start()
            return f"{m.name} killed, back after {m.name} answered /healthz"

        def pg_restart():
            clusters.pg_ctl("primary", "restart", "-m", "fast")
            return "primary restarted (pg_ctl restart -m fast)"

        def cut():
            seconds = random.uniform(3, 6)
            closed = proxy.cut(seconds)
            time.sleep(seconds)
            return f"{murmurs[0].name}'s database connections cut for {seconds:.1f} s ({closed} open ones closed)"

        def replica_stop():
            clusters.pg_ctl("replica", "stop", "-m", "fast")
            seconds = random.uniform(5, 10)
            time.sleep(seconds)
            clusters.pg_ctl("replica", "start")
            return f"replica stopped for {seconds:.1f} s, started again"

        ledger = Ledger()
        start = time.monotonic()
        deadline = start + args.duration
        load = Load(caddy.port, members, ledger, seeded_posts, [m.id for m in members], args.threads, deadline)
        kinds = [] if args.no_faults else ["kill9", "pg_restart", "cut", "replica_stop"]
        faults = Faults(kinds, {"kill9": kill9, "pg_restart": pg_restart, "cut": cut, "replica_stop": replica_stop},
                        start + 5, deadline - 12, max(len(kinds), int(args.duration // 12)))
        log(f"load through Caddy :{caddy.port} for {args.duration:.0f} s, {args.threads} threads; faults at "
            + ", ".join(f"{at - T0:.0f}s {kind}" for at, kind in faults.plan))
        fault_thread = threading.Thread(target=faults.run)
        fault_thread.start()
        load.run()
        fault_thread.join()
        log("load over; waiting for the fan-out queue, then checking")
        for m in murmurs:
            if not m.alive():
                m.start()
        anomalies = settle(query) + check(query, ledger, baseline, first_run_post)
        logs = {m.name: m.log_lines("ERROR", "WARN", "panicked") for m in murmurs}
        mode = "PostgreSQL, 3 processes behind Caddy, 1 streaming replica" + (", through PgBouncer" if args.pgbouncer else "")
        report(mode, args, ledger, faults.log, anomalies,
               baseline["counters"], logs, work)
        return anomalies
    finally:
        for m in murmurs:
            m.stop()
        if caddy:
            caddy.stop()
        if bouncer:
            bouncer.stop()
        clusters.stop()


class Tmpfs:
    """A small tmpfs for SQLite's data directory, so the disk can be filled."""

    def __init__(self, path, size_mb):
        self.path = path
        os.makedirs(path)
        subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size_mb}m", "tmpfs", path], check=True)

    def fill(self):
        """Writes a filler file until the disk says it is full; answers its size."""
        written = 0
        # Unbuffered, so the last write that does not fit fails here, not in close().
        with open(os.path.join(self.path, "filler"), "wb", buffering=0) as f:
            for chunk in (b"\0" * 65536, b"\0" * 512):  # then the last bytes that fit
                try:
                    while True:
                        written += f.write(chunk)
                except OSError:
                    pass
        return written

    def free(self):
        filler = os.path.join(self.path, "filler")
        if os.path.exists(filler):
            os.remove(filler)

    def unmount(self):
        subprocess.run(["umount", "-l", self.path], check=False)


class WalSize:
    """Samples the size of SQLite's log while the load runs: its peak is a run's figure."""

    def __init__(self, path):
        self.path, self.peak, self.running = path, 0, True
        self.thread = threading.Thread(target=self.sample, daemon=True)
        self.thread.start()

    def sample(self):
        while self.running:
            try:
                self.peak = max(self.peak, os.path.getsize(self.path))
            except OSError:
                pass
            time.sleep(0.2)

    def stop(self):
        self.running = False
        self.thread.join()


def run_sqlite(args, work):
    disk = Tmpfs(os.path.join(work, "data"), args.tmpfs_mb)
    murmur = None
    try:
        env = dict(os.environ, RUST_LOG="murmur=info,tower_http=warn", MURMUR_DATA_DIR=disk.path)
        env.pop("DATABASE_URL", None)
        env.pop("DATABASE_REPLICA_URL", None)
        log(f"seeding {args.members} members, {args.posts} posts into a {args.tmpfs_mb} MB tmpfs")
        members = seed(args.binary, env, work, args.members, args.posts, args.seed)
        reader = SqliteReader(os.path.join(disk.path, "murmur.db"))
        query = reader.query
        murmur = Murmur("murmur-sqlite", args.binary, work, env, "http://127.0.0.1:8080")
        murmur.start()
        baseline = baseline_of(query)
        first_run_post = int(query("SELECT COALESCE(MAX(id), 0) + 1 FROM posts")[0][0])
        seeded_posts = [int(r[0]) for r in query("SELECT id FROM posts WHERE deleted_at IS NULL AND repost_of_id IS NULL "
                                                 "ORDER BY id DESC LIMIT 2000")]
        ledger = Ledger()
        full_findings = []

        def kill9():
            murmur.kill9()
            time.sleep(random.uniform(1, 3))
            murmur.start()
            return "murmur killed, back after it answered /healthz"

        def probe_post(conn, member, kind):
            """One post, not retried: its status is what a member sees at that moment."""
            key = uuid.uuid4().hex
            with ledger.lock:
                ledger.attempted_keys.append((member.id, key))
            status, body = load.request(conn, member, "POST", "/api/posts", {"content": f"fault-run {key} {kind}"},
                                        {"Idempotency-Key": key})
            ledger.answer(kind, status)
            if status == 201:
                with ledger.lock:
                    ledger.posts.append({"key": key, "member": member.id, "id": body["id"], "kind": kind,
                                         "reply_to": None, "options": [], "acked_at": time.monotonic()})
            return status, body

        def disk_full():
            try:
                return fill_and_probe()
            finally:
                disk.free()

        def fill_and_probe():
            filled = disk.fill()
            # The load goes on meanwhile; these probes say what a write answers on a full disk.
            # Probes by members in turn, so no member's own limit (30 posts a minute) answers.
            probers, conn, statuses = iter(members * 10), [None], collections.Counter()
            seconds = random.uniform(4, 8)
            until = time.monotonic() + seconds
            while time.monotonic() < until:
                status, body = probe_post(conn, next(probers), "full-disk-probe")
                statuses[status] += 1
                if status not in (503, 201) and len(full_findings) < 5:
                    full_findings.append(f"full disk: a post answered {status}: {body}")
                time.sleep(0.2)
            disk.free()
            # Without a restart, writes succeed again.
            recovered = False
            for _ in range(50):
                if probe_post(conn, next(probers), "after-full-disk-probe")[0] == 201:
                    recovered = True
                    break
                time.sleep(0.2)
            if not recovered:
                full_findings.append("full disk: after the filler was removed, posts did not succeed within 10 s (no restart)")
            if not murmur.alive():
                full_findings.append("full disk: murmur exited while the disk was full")
                murmur.start()
            return (f"disk filled ({filled // 1024} KB filler) for {seconds:.1f} s; probe posts answered "
                    + ", ".join(f"{s or 'no answer'}×{n}" for s, n in sorted(statuses.items()))
                    + f"; {'recovered' if recovered else 'NOT recovered'} without a restart")

        start = time.monotonic()
        deadline = start + args.duration
        load = Load(murmur.port, members, ledger, seeded_posts, [m.id for m in members], args.threads, deadline)
        kinds = [] if args.no_faults else ["kill9", "disk_full"]
        faults = Faults(kinds, {"kill9": kill9, "disk_full": disk_full}, start + 5, deadline - 12,
                        max(len(kinds), int(args.duration // 15)))
        log(f"load on :{murmur.port} for {args.duration:.0f} s, {args.threads} threads; faults at "
            + ", ".join(f"{at - T0:.0f}s {kind}" for at, kind in faults.plan))
        fault_thread = threading.Thread(target=faults.run)
        fault_thread.start()
        wal = WalSize(os.path.join(disk.path, "murmur.db-wal"))
        load.run()
        fault_thread.join()
        wal.stop()
        if not murmur.alive():
            murmur.start()
        log("load over; waiting for the fan-out queue, then checking")
        anomalies = full_findings + settle(query) + check(query, ledger, baseline, first_run_post)
        report("SQLite, 1 process", args, ledger, faults.log, anomalies, baseline["counters"],
               {murmur.name: murmur.log_lines("ERROR", "WARN", "panicked")}, work,
               [f"SQLite's log (murmur.db-wal) at most {wal.peak // 2**20} MB during the load ({args.tmpfs_mb} MB tmpfs)."])
        return anomalies
    finally:
        if murmur:
            murmur.stop()
        # The tmpfs goes; a copy of the database stays with the kept working directory.
        shutil.copytree(disk.path, os.path.join(work, "sqlite-data"), ignore=shutil.ignore_patterns("filler"))
        disk.unmount()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sqlite", action="store_true", help="one process on SQLite in a tmpfs (kill -9, full disk)")
    parser.add_argument("--binary", default=os.path.join(ROOT, "target", "release", "murmur"))
    parser.add_argument("--duration", type=float, default=60, help="seconds of load (default 60)")
    parser.add_argument("--members", type=int, default=300)
    parser.add_argument("--posts", type=int, default=5000)
    parser.add_argument("--threads", type=int, help="load threads, each driving its own members (default 24; --sqlite: 8)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the network and of the faults' moments")
    parser.add_argument("--pgbouncer", action="store_true", help="PostgreSQL through PgBouncer in transaction mode")
    parser.add_argument("--pg-port", type=int, default=55432, help="the primary's port; the replica's is the next")
    # Room for the seeded database and SQLite's log, which under this load grows to hundreds of
    # MB between the moments a checkpoint can start it over (docs/faults.md); the filler takes the rest.
    parser.add_argument("--tmpfs-mb", type=int, default=256, help="size of the SQLite run's tmpfs (default 256)")
    parser.add_argument("--no-faults", action="store_true", help="the load and the checks alone: a baseline")
    parser.add_argument("--keep", action="store_true", help="keep the working directory (logs, databases)")
    args = parser.parse_args()
    if args.threads is None:
        # One process on SQLite: fewer clients, or its log outgrows any small disk (docs/faults.md).
        args.threads = 8 if args.sqlite else 24
    random.seed(args.seed)
    if not os.access(args.binary, os.X_OK):
        sys.exit(f"no murmur binary at {args.binary} (build it, or give --binary)")
    work = tempfile.mkdtemp(prefix="murmur-faults.")
    os.chmod(work, 0o755)
    log(f"working in {work}")
    # A copy: a rebuild of the binary meanwhile must not change the code a restart runs.
    args.binary = shutil.copy(args.binary, os.path.join(work, "murmur"))
    try:
        anomalies = run_sqlite(args, work) if args.sqlite else run_postgres(args, work)
    except Exception as e:
        log(f"the run failed: {e}; kept {work}")
        raise SystemExit(2)
    if args.keep or anomalies:
        log(f"kept {work}")
    else:
        shutil.rmtree(work, ignore_errors=True)
    sys.exit(1 if anomalies else 0)


if __name__ == "__main__":
    main()

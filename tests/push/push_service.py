"""A push service for the Web Push tests (tests/api/push.rs), checking with code written by
others: the VAPID signature (RFC 8292) with `cryptography`, against the instance's public key
given as the first argument, and the payload decrypted (RFC 8291, aes128gcm) with `http_ece`
using the browser's private key, which only this process holds.

Prints one JSON line when listening: {"port", "p256dh", "auth"} (the browser's keys to
subscribe with), then one JSON line per push received: {"path", "ttl", "urgency",
"problems", "payload"}. A push to a path starting /gone is answered 410, /busy 503; the rest 201.
"""

import base64
import json
import sys
import time
from http.server import BaseHTTPRequestHandler, HTTPServer

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64decode(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64encode(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


INSTANCE_KEY = sys.argv[1]
BROWSER = ec.generate_private_key(ec.SECP256R1())
AUTH = b"0123456789abcdef"


def vapid_problems(header, audience):
    """What is wrong with the Authorization header, as a list (empty when right)."""
    if not header.startswith("vapid "):
        return [f"not a vapid authorization: {header!r}"]
    fields = dict(part.strip().split("=", 1) for part in header[len("vapid "):].split(","))
    problems = []
    if fields.get("k") != INSTANCE_KEY:
        problems.append(f"k is {fields.get('k')!r}, not the instance's key")
    head, claims, signature = fields.get("t", "..").split(".")
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), b64decode(INSTANCE_KEY))
    raw = b64decode(signature)
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    try:
        public.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        problems.append("the signature is not the instance key's")
    if json.loads(b64decode(head)).get("alg") != "ES256":
        problems.append("alg is not ES256")
    claims = json.loads(b64decode(claims))
    if claims.get("aud") != audience:
        problems.append(f"aud is {claims.get('aud')!r}, not {audience!r}")
    if not time.time() < claims.get("exp", 0) <= time.time() + 24 * 3600:
        problems.append(f"exp {claims.get('exp')} is not within the next day")
    if not str(claims.get("sub", "")).startswith(("mailto:", "https:")):
        problems.append(f"sub {claims.get('sub')!r} is not a contact")
    return problems


class Handler(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        problems = vapid_problems(self.headers.get("Authorization", ""), f"http://127.0.0.1:{PORT}")
        if self.headers.get("Content-Encoding") != "aes128gcm":
            problems.append(f"Content-Encoding is {self.headers.get('Content-Encoding')!r}")
        payload = None
        try:
            plain = http_ece.decrypt(body, private_key=BROWSER, auth_secret=AUTH, version="aes128gcm")
            payload = json.loads(plain)
        except Exception as error:  # noqa: BLE001 - reported to the test
            problems.append(f"decrypting: {error!r}")
        record = {
            "path": self.path,
            "ttl": self.headers.get("TTL"),
            "urgency": self.headers.get("Urgency"),
            "problems": problems,
            "payload": payload,
        }
        print(json.dumps(record), flush=True)
        status = 410 if self.path.startswith("/gone") else 503 if self.path.startswith("/busy") else 201
        self.send_response(status)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


server = HTTPServer(("127.0.0.1", 0), Handler)
PORT = server.server_address[1]
browser_public = BROWSER.public_key().public_bytes(
    serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
)
print(json.dumps({"port": PORT, "p256dh": b64encode(browser_public), "auth": b64encode(AUTH)}), flush=True)
server.serve_forever()

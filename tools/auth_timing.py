#!/usr/bin/env python3
"""How long a 401 takes for an unknown key and for a known key with a wrong secret (issue 13).

Sends the same signed `GET /v1/affiliate-job/preferred-start-options` (covering
`(request-target) host date`) to a running `intake serve` under a known key id signed with a
wrong secret and under an unknown key id of the same shape, one of each a round in random order,
on one kept-alive connection, and times each exchange from its first byte sent to the last byte
of its answer. Both answers are the same 401 (the same detail, since the signing strings are
equal). Prints the median and quartiles of each, the difference of the medians, and the
Mann-Whitney U z-score of "unknown" against "known" (negative: unknown answered faster).

Usage:
    tools/auth_timing.py --address 127.0.0.1:18181 --key-id stg_... [--requests 1000] [--warmup 200]
        [--other-key-id stg_...]

`--other-key-id` compares against that key id instead of a made-up unknown one: a revoked key's, to
see whether what remains is the store's lookup (a revoked key's row exists), or an unknown one's, as a
control that should show no difference.

Only the standard library; the key's secret is not needed (it is the wrong one that is sent).
"""

import argparse
import base64
import email.utils
import hashlib
import hmac
import math
import random
import socket
import statistics
import string
import time

PATH = "/v1/affiliate-job/preferred-start-options"


def authorization(key_id: str, host: str, date: str) -> str:
    signing_string = f"(request-target): get {PATH}\nhost: {host}\ndate: {date}"
    mac = hmac.new(b"not the secret of any key", signing_string.encode(), hashlib.sha256)
    signature = base64.b64encode(mac.digest()).decode()
    return (
        f'Signature keyId="{key_id}",algorithm="hmac-sha256",'
        f'headers="(request-target) host date",signature="{signature}"'
    )


def request(key_id: str, host: str) -> bytes:
    date = email.utils.formatdate(usegmt=True)
    return (
        f"GET {PATH} HTTP/1.1\r\nHost: {host}\r\nDate: {date}\r\n"
        f"Authorization: {authorization(key_id, host, date)}\r\n\r\n"
    ).encode()


def read_answer(sock: socket.socket) -> int:
    """Reads one answer framed by its Content-Length; returns its status."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("the server closed the connection")
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    length = 0
    for line in lines[1:]:
        name, _, value = line.partition(":")
        if name.strip().lower() == "content-length":
            length = int(value.strip())
    while len(body) < length:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("the server closed the connection mid-answer")
        body += chunk
    return int(lines[0].split(" ")[1])


def mann_whitney_z(a: list, b: list) -> float:
    """z of the U statistic of `a` against `b` (normal approximation, ties averaged)."""
    combined = sorted([(x, 0) for x in a] + [(x, 1) for x in b])
    ranks = [0.0] * len(combined)
    i = 0
    while i < len(combined):
        j = i
        while j + 1 < len(combined) and combined[j + 1][0] == combined[i][0]:
            j += 1
        for k in range(i, j + 1):
            ranks[k] = (i + j) / 2 + 1
        i = j + 1
    rank_sum_a = sum(r for r, (_, group) in zip(ranks, combined) if group == 0)
    n1, n2 = len(a), len(b)
    u = rank_sum_a - n1 * (n1 + 1) / 2
    mean = n1 * n2 / 2
    sd = math.sqrt(n1 * n2 * (n1 + n2 + 1) / 12)
    return (u - mean) / sd


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--address", required=True, help="HOST:PORT of the server")
    parser.add_argument("--key-id", required=True, help="a key the server knows")
    parser.add_argument("--requests", type=int, default=1000, help="timed requests of each kind")
    parser.add_argument("--warmup", type=int, default=200, help="untimed requests of each kind first")
    parser.add_argument("--other-key-id", help="compare against this key id instead of a made-up one")
    args = parser.parse_args()

    host, port = args.address.rsplit(":", 1)
    prefix = args.key_id[:4]
    unknown = args.other_key_id or prefix + "".join(
        random.choice(string.ascii_letters + string.digits) for _ in args.key_id[4:]
    )
    kinds = {"known key, wrong secret": args.key_id, "unknown key": unknown}
    times = {kind: [] for kind in kinds}
    sock = socket.create_connection((host, int(port)))
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    for round_number in range(args.warmup + args.requests):
        order = list(kinds.items())
        random.shuffle(order)
        for kind, key_id in order:
            payload = request(key_id, args.address)
            started = time.perf_counter_ns()
            sock.sendall(payload)
            status = read_answer(sock)
            elapsed = time.perf_counter_ns() - started
            if status != 401:
                raise SystemExit(f"{kind}: expected 401, got {status}")
            if round_number >= args.warmup:
                times[kind].append(elapsed / 1000)
    sock.close()

    for kind, values in times.items():
        q1, median, q3 = statistics.quantiles(values, n=4)
        print(f"{kind:>24}: n={len(values)} median {median:.1f} us (quartiles {q1:.1f} .. {q3:.1f})")
    known = statistics.median(times["known key, wrong secret"])
    unknown_median = statistics.median(times["unknown key"])
    print(f"unknown minus known: {unknown_median - known:+.1f} us")
    z = mann_whitney_z(times["unknown key"], times["known key, wrong secret"])
    print(f"Mann-Whitney z (unknown vs known): {z:+.2f}")


if __name__ == "__main__":
    main()

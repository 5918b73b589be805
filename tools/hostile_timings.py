#!/usr/bin/env python3
"""Timings of a running intake server under hostile clients (issue 13).

Measures, against a server someone started (a release build, see BENCHMARKS.md):

1. how long the server takes to refuse a 400 KB Authorization header, beside an ordinary 401 (a
   well-formed signature of an unknown key), each on a new connection, from connect to the answer
   or the connection's close;
2. the latency of GET /healthz, on a new connection each time (as a load balancer's health check),
   with no attack and then while each attack runs:
   - slow: N connections each sending a request head one byte a second (re-opened when closed);
   - idle: N connections sending nothing (re-opened when closed);
   - huge-headers: 4 loops sending a request with a 400 KB Authorization header, one after another;
   - bodies: 12 connections each sending an unauthenticated 40 MB multipart body, again and again;
   - images (only with --key-id and INTAKE_KEY_SECRET): 3 loops sending a signed
     POST /verify/jobs/with-attachments with five 40-megapixel PNGs (8000x5000, a few hundred KB
     each compressed), the most the service accepts; nothing is created.

Each attack runs in a process of its own, so that the probe's timing is not held up by the
attack's own work; every request loop is bounded by --seconds. Whatever the server answers (or
whether it closes a connection first) is counted, not assumed, so the script works whichever
checks the server makes first. With --pid, the server's VmHWM and VmRSS are read from
/proc/PID/status after each attack. Standard library only.

    tools/hostile_timings.py --base-url http://127.0.0.1:18181 [--pid PID] [--key-id K]

Prints Markdown tables.
"""

import argparse
import asyncio
import base64
import collections
import email.utils
import hashlib
import hmac
import json
import math
import multiprocessing
import os
import resource
import socket
import struct
import sys
import time
import urllib.parse
import zlib

BASE_PATH = "/v1/affiliate-job"
OPTIONS = BASE_PATH + "/preferred-start-options"
WITH_ATTACHMENTS = BASE_PATH + "/jobs/with-attachments"
VERIFY = BASE_PATH + "/verify/jobs/with-attachments"

HUGE_HEADER_BYTES = 400 * 1024
BODY_BYTES = 40 * 1024 * 1024
PROBE_TIMEOUT = 5.0
ANSWER_TIMEOUT = 60.0

JOB = {
    "description": "Boiler not working, no hot water since Monday.",
    "categoryId": 1335,
    "email": "sam.jones@example.com",
    "phone": "07900 000000",
    "firstName": "Sam",
    "lastName": "Jones",
    "postcode": "SW1A 1AA",
    "preferredStart": {"id": "URGENT"},
}


def http_date():
    return email.utils.formatdate(usegmt=True)


def unknown_key_authorization():
    """Well-formed (a 32-byte MAC), so that it is refused for its key, not for its form."""
    mac = base64.b64encode(bytes(32)).decode("ascii")
    return 'Signature keyId="stg_unknown",algorithm="hmac-sha256",headers="date",signature="%s"' % mac


def head(method, path, host, headers):
    lines = ["%s %s HTTP/1.1" % (method, path), "Host: " + host]
    lines += ["%s: %s" % pair for pair in headers]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


def ordinary_refusal(host):
    headers = [("Date", http_date()), ("Authorization", unknown_key_authorization()),
               ("Connection", "close")]
    return head("GET", OPTIONS, host, headers)


def huge_header_request(host):
    signature = unknown_key_authorization()
    pad = HUGE_HEADER_BYTES - len(signature) - len(',pad=""')
    headers = [("Date", http_date()), ("Authorization", signature + ',pad="%s"' % ("p" * pad)),
               ("Connection", "close")]
    return head("GET", OPTIONS, host, headers)


def status_of(answer):
    """`431`, `200`, ... or `closed` when no status line came back."""
    if answer.startswith(b"HTTP/1.1 ") and len(answer) >= 12:
        return answer[9:12].decode("ascii", "replace")
    return "closed"


def percentile(values, q):
    """Nearest-rank percentile of `values` (seconds), in milliseconds."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = min(len(ordered), max(1, math.ceil(q / 100.0 * len(ordered))))
    return ordered[rank - 1] * 1000.0


def memory(pid):
    if pid is None:
        return ""
    fields = {}
    with open("/proc/%d/status" % pid) as status:
        for line in status:
            name, _, value = line.partition(":")
            fields[name] = value.strip()
    return "%s / %s" % (fields.get("VmHWM", "?"), fields.get("VmRSS", "?"))


def raise_descriptor_limit():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


# ---- blocking client: the refusal timings and the /healthz probe ------------------------------

def timed_exchange(address, request, timeout):
    """Sends `request` on a new connection; (seconds until the answer ended or the connection
    closed, status)."""
    started = time.perf_counter()
    answer = b""
    try:
        with socket.create_connection(address, timeout=timeout) as sock:
            try:
                sock.sendall(request)
            except OSError:
                pass  # closed while sending: what came back is read below
            while True:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                answer += chunk
    except socket.timeout:
        return time.perf_counter() - started, "timeout"
    except OSError:
        pass  # reset: the answer so far, if any, stands
    return time.perf_counter() - started, status_of(answer)


def refusal_timings(address, host, count):
    rows = []
    for name, build in (("ordinary 401 (unknown key)", ordinary_refusal),
                        ("400 KB Authorization", huge_header_request)):
        times, statuses = [], collections.Counter()
        for _ in range(count):
            seconds, status = timed_exchange(address, build(host), ANSWER_TIMEOUT)
            times.append(seconds)
            statuses[status] += 1
        rows.append((name, count, percentile(times, 50), percentile(times, 99),
                     sum(times) / len(times) * 1000.0, dict(statuses)))
    return rows


def probe(address, seconds):
    """GET /healthz on a new connection, one after another for `seconds`."""
    request = b"GET /healthz HTTP/1.1\r\nHost: probe\r\nConnection: close\r\n\r\n"
    latencies, failed = [], 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        elapsed, status = timed_exchange(address, request, PROBE_TIMEOUT)
        if status == "200":
            latencies.append(elapsed)
        else:
            failed += 1
        time.sleep(0.01)
    return latencies, failed


# ---- attacks, each in its own process ---------------------------------------------------------

async def read_to_end(reader):
    answer = b""
    try:
        while True:
            chunk = await asyncio.wait_for(reader.read(65536), ANSWER_TIMEOUT)
            if not chunk:
                break
            answer += chunk
    except (OSError, asyncio.TimeoutError):
        pass
    return answer


async def hold(address, stopping, tally, trickle):
    """One connection at a time, held until the server closes it, then another: sending a byte of
    a never-ending head each second when `trickle`, else nothing."""
    filler = b"GET /healthz HTTP/1.1\r\nHost: slow\r\nX-Slow: "
    while not stopping():
        try:
            reader, writer = await asyncio.open_connection(*address)
        except OSError:
            tally["connect failed"] += 1
            await asyncio.sleep(0.1)
            continue
        tally["opened"] += 1
        sent = 0
        while not stopping():
            if trickle:
                writer.write(filler[sent:sent + 1] or b"a")
                sent += 1
                try:
                    await writer.drain()
                except OSError:
                    tally["closed by the server"] += 1
                    break
            try:
                data = await asyncio.wait_for(reader.read(1024), 1.0)
            except asyncio.TimeoutError:
                continue
            except OSError:
                data = b""
            if not data:
                tally["closed by the server"] += 1
                break
            tally["answered"] += 1
        writer.close()


async def send_and_read(address, request_head, body_chunks, tally):
    try:
        reader, writer = await asyncio.open_connection(*address)
    except OSError:
        tally["connect failed"] += 1
        await asyncio.sleep(0.1)
        return
    # Read while sending: a server may answer and close before the body is all sent.
    answer = asyncio.ensure_future(read_to_end(reader))
    try:
        writer.write(request_head)
        await writer.drain()
        for chunk in body_chunks:
            if answer.done():
                tally["answered before the whole body"] += 1
                break
            writer.write(chunk)
            await writer.drain()
    except OSError:
        tally["closed while sending"] += 1
    tally[status_of(await answer)] += 1
    writer.close()


async def huge_headers(address, host, stopping, tally):
    while not stopping():
        await send_and_read(address, huge_header_request(host), [], tally)


async def big_bodies(address, host, stopping, tally):
    megabyte = b"x" * (1024 * 1024)
    while not stopping():
        headers = [("Date", http_date()), ("Authorization", unknown_key_authorization()),
                   ("Content-Type", "multipart/form-data; boundary=hostile"),
                   ("Content-Length", str(BODY_BYTES)), ("Connection", "close")]
        chunks = (megabyte for _ in range(BODY_BYTES // len(megabyte)))
        await send_and_read(address, head("POST", WITH_ATTACHMENTS, host, headers), chunks, tally)


def signed_headers(key_id, secret, method, path, host, body, content_type):
    date = http_date()
    digest = "SHA-256=" + base64.b64encode(hashlib.sha256(body).digest()).decode("ascii")
    covered = [("(request-target)", "%s %s" % (method.lower(), path)), ("host", host),
               ("date", date), ("digest", digest), ("content-length", str(len(body)))]
    signing_string = "\n".join("%s: %s" % pair for pair in covered)
    mac = hmac.new(secret.encode("utf-8"), signing_string.encode("utf-8"), hashlib.sha256).digest()
    authorization = 'Signature keyId="%s",algorithm="hmac-sha256",headers="%s",signature="%s"' % (
        key_id, " ".join(name for name, _ in covered), base64.b64encode(mac).decode("ascii"))
    return [("Date", date), ("Digest", digest), ("Content-Length", str(len(body))),
            ("Content-Type", content_type), ("Authorization", authorization),
            ("Connection", "close")]


async def image_requests(address, host, stopping, tally, key_id, secret, body):
    content_type = "multipart/form-data; boundary=hostile-images"
    while not stopping():
        headers = signed_headers(key_id, secret, "POST", VERIFY, host, body, content_type)
        await send_and_read(address, head("POST", VERIFY, host, headers), [body], tally)


def png(width, height):
    """An RGB PNG of `width` x `height` black pixels: a few hundred KB that decode to
    width*height*3 bytes."""
    def chunk(kind, data):
        crc = zlib.crc32(kind + data) & 0xFFFFFFFF
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)

    compressor = zlib.compressobj(9)
    row = b"\x00" * (1 + width * 3)
    data = b"".join(compressor.compress(row) for _ in range(height)) + compressor.flush()
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", data) + chunk(b"IEND", b"")


def images_body():
    image = png(8000, 5000)
    parts = [b'--hostile-images\r\nContent-Disposition: form-data; name="data"\r\n'
             b"Content-Type: application/json\r\n\r\n" + json.dumps(JOB).encode("utf-8") + b"\r\n"]
    for n in range(5):
        parts.append(b'--hostile-images\r\nContent-Disposition: form-data; name="images"; '
                     b'filename="photo%d.png"\r\nContent-Type: image/png\r\n\r\n' % n + image + b"\r\n")
    parts.append(b"--hostile-images--\r\n")
    return b"".join(parts)


def attack_process(kind, address, host, size, ready, stop, results, extra):
    raise_descriptor_limit()
    tally = collections.Counter()

    async def main():
        stopping = stop.is_set
        if kind == "slow":
            tasks = [hold(address, stopping, tally, True) for _ in range(size)]
        elif kind == "idle":
            tasks = [hold(address, stopping, tally, False) for _ in range(size)]
        elif kind == "huge-headers":
            tasks = [huge_headers(address, host, stopping, tally) for _ in range(size)]
        elif kind == "bodies":
            tasks = [big_bodies(address, host, stopping, tally) for _ in range(size)]
        else:
            key_id, secret, body = extra
            tasks = [image_requests(address, host, stopping, tally, key_id, secret, body)
                     for _ in range(size)]
        running = [asyncio.ensure_future(task) for task in tasks]
        await asyncio.sleep(1.0)  # let the connections open and the first requests leave
        ready.set()
        while not stop.is_set():
            await asyncio.sleep(0.1)
        # Requests in flight finish (or time out); loops do not start another.
        await asyncio.wait(running, timeout=ANSWER_TIMEOUT)

    asyncio.run(main())
    results.put(dict(tally))


def run_attack(kind, size, args, address, host, extra=None):
    ready, stop = multiprocessing.Event(), multiprocessing.Event()
    results = multiprocessing.Queue()
    process = multiprocessing.Process(
        target=attack_process, args=(kind, address, host, size, ready, stop, results, extra))
    process.start()
    ready.wait(60)
    latencies, failed = probe(address, args.seconds)
    stop.set()
    tally = results.get(timeout=ANSWER_TIMEOUT + 30)
    process.join()
    return latencies, failed, tally


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base-url", default="http://127.0.0.1:8080")
    parser.add_argument("--pid", type=int, help="the server's process id, to read its memory")
    parser.add_argument("--key-id", help="a key of the server's environment, for the image attack "
                        "(secret from INTAKE_KEY_SECRET)")
    parser.add_argument("--seconds", type=float, default=10.0, help="probing time per attack")
    parser.add_argument("--connections", type=int, default=500,
                        help="connections of the slow and idle attacks")
    parser.add_argument("--refusals", type=int, default=200, help="requests per refusal timing")
    args = parser.parse_args()
    url = urllib.parse.urlsplit(args.base_url)
    address, host = (url.hostname, url.port or 80), url.netloc
    raise_descriptor_limit()

    print("Load average before: %.2f %.2f %.2f\n" % os.getloadavg())
    print("## Refusal time, new connection each (%d each)\n" % args.refusals)
    print("| request | n | p50 ms | p99 ms | mean ms | answers |")
    print("|---|---:|---:|---:|---:|---|")
    for name, count, p50, p99, mean, statuses in refusal_timings(address, host, args.refusals):
        print("| %s | %d | %.2f | %.2f | %.2f | %s |" % (name, count, p50, p99, mean, statuses))

    attacks = [("slow", args.connections, None), ("idle", args.connections, None),
               ("huge-headers", 4, None), ("bodies", 12, None)]
    if args.key_id:
        secret = os.environ.get("INTAKE_KEY_SECRET")
        if not secret:
            sys.exit("--key-id needs INTAKE_KEY_SECRET")
        attacks.append(("images", 3, (args.key_id, secret, images_body())))

    print("\n## /healthz during each attack (%.0f s each)\n" % args.seconds)
    print("| attack | probes | failed | p50 ms | p99 ms | max ms | attack's answers | server VmHWM / VmRSS after |")
    print("|---|---:|---:|---:|---:|---:|---|---|")
    latencies, failed = probe(address, args.seconds)
    rows = [("none", latencies, failed, {})]
    print_row(rows[-1], args.pid)
    for kind, size, extra in attacks:
        latencies, failed, tally = run_attack(kind, size, args, address, host, extra)
        print_row(("%s x%d" % (kind, size), latencies, failed, tally), args.pid)
    print("\nLoad average after: %.2f %.2f %.2f" % os.getloadavg())


def print_row(row, pid):
    name, latencies, failed, tally = row
    print("| %s | %d | %d | %.2f | %.2f | %.2f | %s | %s |" % (
        name, len(latencies) + failed, failed, percentile(latencies, 50),
        percentile(latencies, 99), max(latencies, default=float("nan")) * 1000.0, tally,
        memory(pid)))
    sys.stdout.flush()


if __name__ == "__main__":
    main()

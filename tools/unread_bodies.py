#!/usr/bin/env python3
"""What large uploads under an unknown key cost a running `intake serve` in memory (issue 13).

Opens CLIENTS connections at once, each sending a multipart `POST
/v1/affiliate-job/jobs/with-attachments` with `Content-Length: SIZE` under `keyId="nobody"`,
writing the body until it is all sent or the server closes, then reading the answer. Prints the
answers (status, or `closed`), how much each client got to send, and the server's resident memory
(`/proc/PID/status`) before, at its peak (VmHWM, reset through `clear_refs` first) and after.

Usage:
    tools/unread_bodies.py --address 127.0.0.1:18181 --pid PID [--clients 48] [--size 52000000]

Run it on the server's own machine (it reads the server's /proc). Standard library only.
"""

import argparse
import datetime
import socket
import threading
import time


def kib(pid: int, field: str) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise SystemExit(f"no {field} in /proc/{pid}/status")


def upload(address: str, size: int, start: threading.Barrier, results: list) -> None:
    host, port = address.rsplit(":", 1)
    sock = socket.create_connection((host, int(port)))
    sock.settimeout(60)
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    head = (
        f"POST /v1/affiliate-job/jobs/with-attachments HTTP/1.1\r\nHost: {address}\r\n"
        f"Date: {date}\r\nContent-Type: multipart/form-data; boundary=b\r\n"
        f"Content-Length: {size}\r\nAuthorization: Signature keyId=\"nobody\","
        f"algorithm=\"hmac-sha256\",headers=\"(request-target) host date\","
        f"signature=\"{'A' * 43}=\"\r\n\r\n"
    ).encode()
    start.wait()
    sock.sendall(head)
    chunk = b"x" * 65536
    sent = 0
    try:
        while sent < size:
            sent += sock.send(chunk[: min(len(chunk), size - sent)])
    except OSError:
        pass
    answer = b""
    try:
        while True:
            data = sock.recv(65536)
            if not data:
                break
            answer += data
    except OSError:
        pass
    sock.close()
    status = answer.split(b" ")[1].decode() if answer.startswith(b"HTTP/") else "closed"
    results.append((status, sent))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--address", required=True, help="HOST:PORT of the server")
    parser.add_argument("--pid", type=int, required=True, help="the server's process id")
    parser.add_argument("--clients", type=int, default=48)
    parser.add_argument("--size", type=int, default=52_000_000, help="Content-Length of each upload")
    args = parser.parse_args()

    with open(f"/proc/{args.pid}/clear_refs", "w") as clear:
        clear.write("5")  # VmHWM := VmRSS
    before = kib(args.pid, "VmRSS")
    start = threading.Barrier(args.clients)
    results: list = []
    threads = [
        threading.Thread(target=upload, args=(args.address, args.size, start, results))
        for _ in range(args.clients)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    time.sleep(0.5)
    statuses = sorted({status for status, _ in results})
    counts = {status: sum(1 for s, _ in results if s == status) for status in statuses}
    sent = sorted(sent for _, sent in results)
    print(f"answers: {counts}")
    print(f"sent per client: {sent[0] / 1e6:.1f} to {sent[-1] / 1e6:.1f} MB")
    print(
        f"VmRSS before {before / 1024:.1f} MiB, VmHWM peak {kib(args.pid, 'VmHWM') / 1024:.1f} MiB, "
        f"VmRSS after {kib(args.pid, 'VmRSS') / 1024:.1f} MiB"
    )


if __name__ == "__main__":
    main()

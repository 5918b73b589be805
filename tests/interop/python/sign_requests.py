#!/usr/bin/env python3
"""Interoperability check: requests signed by PyPI `httpsig` 1.3.0 against a running intake server.

The server's own tests sign with the project's own signer, which cannot catch a mistake made the same way
on both sides (see shared SIGNATURES.md: a library once dropped `(request-target)` from signing *and*
verifying and its round-trip tests still passed). So here an independent library builds every signature
and the stdlib sends the bytes; this script never computes an HMAC itself.

Environment:
  INTAKE_BASE_URL         e.g. http://127.0.0.1:8080 (a server running with --environment staging)
  INTAKE_KEY_ID           a staging key id          } from `intake keys create --json`
  INTAKE_KEY_SECRET       its secret                }
  INTAKE_PROD_KEY_ID      a production key id, same data dir: a staging server must refuse it
  INTAKE_PROD_KEY_SECRET  its secret

Prints one line per case, then `N passed, M failed`; exits 1 if any case failed, 2 on bad usage.
"""

import base64
import email.utils
import hashlib
import http.client
import importlib.metadata
import json
import os
import sys
import time
import urllib.parse

try:
    import httpsig
except ImportError:
    sys.stderr.write("httpsig is not installed: run tests/interop/install.sh\n")
    sys.exit(2)

# The full path is what a generic signing library computes; the server also accepts it relative to the
# base path (the marketplace's documented form), which gets one case of its own below.
BASE_PATH = "/v1/affiliate-job"
PATH = BASE_PATH + "/preferred-start-options"
RELATIVE_PATH = "/preferred-start-options"

ALGORITHMS = ["hmac-sha1", "hmac-sha256", "hmac-sha512"]
FULL_COVERAGE = ["(request-target)", "host", "date", "digest", "content-length"]

# A GET normally has no body; this endpoint reads one anyway so that digest checking can be exercised
# on a request with no side effects. The tampered body has the same length so Content-Length stays
# true and only the digest can catch the change.
BODY = b'{"hello": "world"}'
TAMPERED_BODY = b'{"hello": "WORLD"}'
assert len(BODY) == len(TAMPERED_BODY)

PROBLEM_MEMBERS = {"type", "status", "title", "detail", "instance"}


def env(name):
    value = os.environ.get(name)
    if not value:
        sys.stderr.write("missing environment variable %s (see the docstring of %s)\n" % (name, sys.argv[0]))
        sys.exit(2)
    return value


def http_date(offset_seconds=0):
    return email.utils.formatdate(time.time() + offset_seconds, usegmt=True)


def sha256_digest(body):
    return "SHA-256=" + base64.b64encode(hashlib.sha256(body).digest()).decode("ascii")


class Target:
    def __init__(self, base_url):
        url = urllib.parse.urlsplit(base_url)
        if url.scheme != "http" or not url.hostname:
            sys.stderr.write("INTAKE_BASE_URL must be http://HOST:PORT, got %r\n" % base_url)
            sys.exit(2)
        self.hostname = url.hostname
        self.port = url.port or 80
        # The Host value we sign must be byte-identical to what goes on the wire, so we set it ourselves
        # rather than letting http.client pick it.
        self.host = url.netloc


def signed_request(target, key_id, secret, algorithm, coverage, *, body=None, date=None, signed_path=PATH):
    """Headers for a GET whose signature httpsig computed over `signed_path`.

    `coverage=None` passes no header list, so httpsig signs only `date` and omits the `headers`
    parameter, the draft's default that the server must apply on its own.
    """
    headers = {"Host": target.host, "Date": date or http_date(), "Accept": "application/json"}
    if body is not None:
        headers["Content-Type"] = "application/json"
        headers["Content-Length"] = str(len(body))
        headers["Digest"] = sha256_digest(body)
    # httpsig encodes a str secret as ASCII; the server's HMAC key is the secret's UTF-8 bytes, so hand
    # over bytes and make the rule explicit.
    signer = httpsig.HeaderSigner(key_id, secret.encode("utf-8"), algorithm, coverage)
    return dict(signer.sign(headers, host=target.host, method="GET", path=signed_path))


def send(target, path, headers, body=None):
    conn = http.client.HTTPConnection(target.hostname, target.port, timeout=30)
    try:
        # Host and Content-Length are in `headers`, so http.client adds neither a second time.
        conn.request("GET", path, body=body, headers=headers)
        resp = conn.getresponse()
        return resp.status, {k.lower(): v for k, v in resp.getheaders()}, resp.read()
    finally:
        conn.close()


def check_options(status, headers, body):
    """None when the answer is the preferred-start list, else what is wrong with it."""
    if status != 200:
        return "expected 200, got %d: %s" % (status, body[:500].decode("utf-8", "replace"))
    try:
        options = json.loads(body)
    except ValueError:
        return "200 body is not JSON: %r" % body[:200]
    if not isinstance(options, list) or len(options) != 5:
        return "expected a list of 5 options, got %r" % (options,)
    if options[0].get("id") != "FLEXIBLE":
        return "first option is %r, expected id FLEXIBLE" % (options[0],)
    return None


def check_unauthorized(status, headers, body):
    """None when the answer is a well-formed 401 problem, else what is wrong with it."""
    if status != 401:
        return "expected 401, got %d: %s" % (status, body[:500].decode("utf-8", "replace"))
    content_type = headers.get("content-type", "")
    if not content_type.startswith("application/problem+json"):
        return "401 content-type is %r, expected application/problem+json" % content_type
    challenge = headers.get("www-authenticate", "")
    if challenge.split(" ", 1)[0].lower() != "signature":
        return "401 WWW-Authenticate is %r, expected a Signature challenge" % challenge
    try:
        problem = json.loads(body)
    except ValueError:
        return "401 body is not JSON: %r" % body[:200]
    if not isinstance(problem, dict) or set(problem) != PROBLEM_MEMBERS:
        return "401 problem members are %r, expected exactly %s" % (
            sorted(problem) if isinstance(problem, dict) else problem, sorted(PROBLEM_MEMBERS))
    if problem["status"] != 401:
        return "problem status is %r, expected 401" % problem["status"]
    return None


def post_job(target, key_id, secret):
    """A job POSTed as the marketplace documents it: relative (request-target), an ISO-8601 Date as
    JavaScript's `new Date().toISOString()` gives, the digest signed. Expects 201 with trades."""
    body = json.dumps({
        "description": "Boiler not working, no hot water since Monday.",
        "categoryId": "1335",
        "email": "sam.jones@example.com",
        "phone": "07900000000",
        "firstName": "Sam",
        "lastName": "Jones",
        "postcode": "SW1A 1AA",
        "preferredStart": {"id": "URGENT"},
    }).encode("utf-8")
    iso_date = time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime())
    headers = {"Host": target.host, "Date": iso_date, "Content-Type": "application/json",
               "Content-Length": str(len(body)), "Digest": sha256_digest(body)}
    signer = httpsig.HeaderSigner(key_id, secret.encode("utf-8"), "hmac-sha256", FULL_COVERAGE)
    signed = dict(signer.sign(headers, host=target.host, method="POST", path="/jobs"))
    conn = http.client.HTTPConnection(target.hostname, target.port, timeout=30)
    try:
        conn.request("POST", BASE_PATH + "/jobs", body=body, headers=signed)
        resp = conn.getresponse()
        status, payload = resp.status, resp.read()
    finally:
        conn.close()
    if status != 201:
        return "expected 201, got %d: %s" % (status, payload[:500].decode("utf-8", "replace"))
    created = json.loads(payload)
    if not created.get("id") or not created.get("trades"):
        return "201 without an id and trades: %r" % (created,)
    return None


def detail_of(body):
    try:
        return json.loads(body).get("detail", "")
    except (ValueError, AttributeError):
        return ""


def main():
    target = Target(env("INTAKE_BASE_URL"))
    key_id, secret = env("INTAKE_KEY_ID"), env("INTAKE_KEY_SECRET")
    prod_key_id, prod_secret = env("INTAKE_PROD_KEY_ID"), env("INTAKE_PROD_KEY_SECRET")

    print("httpsig %s against %s" % (importlib.metadata.version("httpsig"), target.host))

    # Each case: (name, check, path sent, headers, body sent).
    cases = []

    for algorithm in ALGORITHMS:
        cases.append(("%s date only" % algorithm, check_options, PATH,
                      signed_request(target, key_id, secret, algorithm, None), None))
        cases.append(("%s full coverage + digest" % algorithm, check_options, PATH,
                      signed_request(target, key_id, secret, algorithm, FULL_COVERAGE, body=BODY), BODY))

    cases.append(("hmac-sha256 relative (request-target)", check_options, PATH,
                  signed_request(target, key_id, secret, "hmac-sha256", FULL_COVERAGE, body=BODY,
                                 signed_path=RELATIVE_PATH), BODY))

    # Tampered requests: each differs from an accepted one in exactly one respect, so a 401 can only
    # come from that respect.
    good = lambda **kw: signed_request(target, key_id, secret, "hmac-sha256", FULL_COVERAGE, body=BODY, **kw)
    cases.append(("tampered: query added after signing", check_unauthorized, PATH + "?x=1", good(), BODY))
    # Signed for another endpoint, sent to this one: the route exists, so only the signature can refuse it.
    cases.append(("tampered: signed for another path", check_unauthorized, PATH,
                  good(signed_path=BASE_PATH + "/jobs"), BODY))
    cases.append(("tampered: body changed, digest signed", check_unauthorized, PATH, good(), TAMPERED_BODY))
    cases.append(("tampered: date 10 minutes old", check_unauthorized, PATH,
                  good(date=http_date(-600)), BODY))
    cases.append(("tampered: wrong secret", check_unauthorized, PATH,
                  signed_request(target, key_id, secret + "-wrong", "hmac-sha256", FULL_COVERAGE, body=BODY),
                  BODY))
    cases.append(("tampered: production key on staging server", check_unauthorized, PATH,
                  signed_request(target, prod_key_id, prod_secret, "hmac-sha256", FULL_COVERAGE, body=BODY),
                  BODY))

    passed = failed = 0
    for name, check, path, headers, body in cases:
        try:
            status, resp_headers, resp_body = send(target, path, headers, body)
            problem = check(status, resp_headers, resp_body)
        except (OSError, http.client.HTTPException) as err:
            status, resp_body, problem = None, b"", "request failed: %s" % err
        if problem is None:
            passed += 1
            extra = ""
            if status == 401:
                # The detail is for integrators; showing it makes a wrong-reason 401 easy to spot.
                extra = " (%s)" % detail_of(resp_body)
            print("ok    python %s: %s%s" % (name, status, extra))
        else:
            failed += 1
            print("FAIL  python %s: %s" % (name, problem))
            print("      sent GET %s headers=%s body=%r" % (path, json.dumps(headers), body))

    problem = post_job(target, key_id, secret)
    if problem is None:
        passed += 1
        print("ok    python POST /jobs (relative target, ISO date, digest): 201")
    else:
        failed += 1
        print("FAIL  python POST /jobs: %s" % problem)

    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

"""Schemathesis hooks that sign every generated request as an affiliate would.

Loaded by `st run` through SCHEMATHESIS_HOOKS (crates/cli/tests/hostile/schemathesis.rs). Each request
is signed after `requests` has prepared it, so the signature covers the exact path, query and body
bytes that go on the wire: hmac-sha256 over `(request-target) host date`, plus `digest` and
`content-length` when there is a body (draft-cavage, as /v1/affiliate-job/openapi.json describes it).
The HMAC is computed here with the standard library, not with the project's signer.

Environment: INTAKE_KEY_ID and INTAKE_KEY_SECRET, a key of the server's environment.
"""

import base64
import email.utils
import hashlib
import hmac
import os
import urllib.parse

import requests.auth
import schemathesis

KEY_ID = os.environ["INTAKE_KEY_ID"]
SECRET = os.environ["INTAKE_KEY_SECRET"].encode("utf-8")


class Signature(requests.auth.AuthBase):
    """Adds Host, Date, Digest and `Authorization: Signature ...` to a prepared request."""

    def __call__(self, request):
        url = urllib.parse.urlsplit(request.url)
        # The Host we sign must be the one sent; http.client would add its own otherwise.
        request.headers["Host"] = url.netloc
        request.headers["Date"] = email.utils.formatdate(usegmt=True)
        covered = ["(request-target)", "host", "date"]
        body = request.body
        if isinstance(body, str):
            body = body.encode("utf-8")
        if body:
            digest = base64.b64encode(hashlib.sha256(body).digest()).decode("ascii")
            request.headers["Digest"] = "SHA-256=" + digest
            request.headers["Content-Length"] = str(len(body))
            covered += ["digest", "content-length"]
        lines = []
        for name in covered:
            if name == "(request-target)":
                lines.append("(request-target): %s %s" % (request.method.lower(), request.path_url))
            else:
                lines.append("%s: %s" % (name, str(request.headers[name]).strip(" \t")))
        mac = hmac.new(SECRET, "\n".join(lines).encode("utf-8"), hashlib.sha256).digest()
        request.headers["Authorization"] = (
            'Signature keyId="%s",algorithm="hmac-sha256",headers="%s",signature="%s"'
            % (KEY_ID, " ".join(covered), base64.b64encode(mac).decode("ascii"))
        )
        return request


@schemathesis.hook
def before_call(context, case, kwargs):
    kwargs["auth"] = Signature()

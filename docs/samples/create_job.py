"""Creates two jobs with requests and the standard library's hmac: one as JSON through POST /jobs,
one with a photo through POST /jobs/with-attachments. Each request is signed (HTTP Signatures,
hmac-sha256) over (request-target) host date digest content-length.

    pip install requests
    INTAKE_BASE_URL=http://127.0.0.1:8080 INTAKE_KEY_ID=stg_... INTAKE_KEY_SECRET=... \\
        INTAKE_PHOTO=boiler.jpg python3 create_job.py

Prints one line per job: the status, then the answer. Exits 1 unless both are 201.
"""

import base64
import email.utils
import hashlib
import hmac
import json
import os
import sys
import uuid
from urllib.parse import urlsplit

import requests

BASE_URL = os.environ.get("INTAKE_BASE_URL", "http://127.0.0.1:8080")
KEY_ID = os.environ["INTAKE_KEY_ID"]
SECRET = os.environ["INTAKE_KEY_SECRET"]
PHOTO = os.environ["INTAKE_PHOTO"]
HOST = urlsplit(BASE_URL).netloc
COVERED = "(request-target) host date digest content-length"


def send(path: str, content_type: str, body: bytes) -> requests.Response:
    """Signs and posts exactly `body`."""
    date = email.utils.formatdate(usegmt=True)
    digest = "SHA-256=" + base64.b64encode(hashlib.sha256(body).digest()).decode()
    signing_string = "\n".join(
        [
            f"(request-target): post {path}",
            f"host: {HOST}",
            f"date: {date}",
            f"digest: {digest}",
            f"content-length: {len(body)}",
        ]
    )
    mac = hmac.new(SECRET.encode(), signing_string.encode(), hashlib.sha256).digest()
    signature = base64.b64encode(mac).decode()
    headers = {
        "Host": HOST,
        "Date": date,
        "Digest": digest,
        "Content-Type": content_type,
        "Content-Length": str(len(body)),
        "Idempotency-Key": str(uuid.uuid4()),
        "Authorization": f'Signature keyId="{KEY_ID}",algorithm="hmac-sha256",'
        f'headers="{COVERED}",signature="{signature}"',
    }
    # `data=bytes` sends these bytes as they are, so the digest holds.
    return requests.post(BASE_URL + path, data=body, headers=headers, timeout=30)


def multipart(job: dict, photo_path: str) -> tuple[str, bytes]:
    """The job in a `data` field and the photo in an `images` field, built by hand so that the
    bytes signed are the bytes sent."""
    boundary = "----intake-sample-" + uuid.uuid4().hex
    name = os.path.basename(photo_path)
    photo_type = "image/png" if name.lower().endswith(".png") else "image/jpeg"
    with open(photo_path, "rb") as photo:
        image = photo.read()
    body = b"".join(
        [
            f"--{boundary}\r\nContent-Disposition: form-data; name=\"data\"\r\n\r\n".encode(),
            json.dumps(job).encode(),
            f"\r\n--{boundary}\r\nContent-Disposition: form-data; name=\"images\"; "
            f"filename=\"{name}\"\r\nContent-Type: {photo_type}\r\n\r\n".encode(),
            image,
            f"\r\n--{boundary}--\r\n".encode(),
        ]
    )
    return f"multipart/form-data; boundary={boundary}", body


def main() -> int:
    job = {
        "categoryId": 1335,
        "description": "Boiler not working, no hot water since Monday.",
        "email": "penny.python@example.com",
        "phone": "07700 900201",
        "firstName": "Penny",
        "lastName": "Python",
        "postcode": "SW1A 1AA",
        "preferredStart": {"id": "URGENT"},
    }
    answers = [send("/v1/affiliate-job/jobs", "application/json", json.dumps(job).encode())]

    with_photo = dict(job, email="rex.requests@example.com", phone="07700 900202",
                      firstName="Rex", lastName="Requests",
                      description="Leaking radiator valve in the hall, photo attached.")
    content_type, body = multipart(with_photo, PHOTO)
    answers.append(send("/v1/affiliate-job/jobs/with-attachments", content_type, body))

    for answer in answers:
        print(answer.status_code, answer.text)
    return 0 if all(answer.status_code == 201 for answer in answers) else 1


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env bash
# Creates two jobs with curl and openssl: one as JSON through POST /jobs, one with a photo through
# POST /jobs/with-attachments. Each request is signed (HTTP Signatures, hmac-sha256) over
# (request-target) host date digest content-length.
#
#   INTAKE_BASE_URL=http://127.0.0.1:8080 INTAKE_KEY_ID=stg_... INTAKE_KEY_SECRET=... \
#     INTAKE_PHOTO=boiler.jpg bash create_job.sh
#
# Prints one line per job: the status, then the answer. Exits 1 unless both are 201.
set -euo pipefail

base_url=${INTAKE_BASE_URL:-http://127.0.0.1:8080}
key_id=${INTAKE_KEY_ID:?set INTAKE_KEY_ID}
secret=${INTAKE_KEY_SECRET:?set INTAKE_KEY_SECRET}
photo=${INTAKE_PHOTO:?set INTAKE_PHOTO to a JPEG or PNG file}
host=${base_url#*://}
host=${host%%/*}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# send PATH CONTENT_TYPE BODY_FILE: signs and posts the exact bytes of BODY_FILE.
send() {
    local path=$1 content_type=$2 body=$3
    local date digest length signing_string signature
    date=$(LC_ALL=C date -u '+%a, %d %b %Y %H:%M:%S GMT')
    digest="SHA-256=$(openssl dgst -sha256 -binary "$body" | openssl base64 -A)"
    length=$(wc -c < "$body" | tr -d ' ')
    signing_string="(request-target): post ${path}
host: ${host}
date: ${date}
digest: ${digest}
content-length: ${length}"
    signature=$(printf '%s' "$signing_string" | openssl dgst -sha256 -hmac "$secret" -binary | openssl base64 -A)
    curl --silent --show-error --output "$work/answer" --write-out '%{http_code}' \
        -X POST "${base_url}${path}" \
        -H "Date: ${date}" \
        -H "Digest: ${digest}" \
        -H "Content-Type: ${content_type}" \
        -H "Idempotency-Key: $(openssl rand -hex 16)" \
        -H "Authorization: Signature keyId=\"${key_id}\",algorithm=\"hmac-sha256\",headers=\"(request-target) host date digest content-length\",signature=\"${signature}\"" \
        --data-binary "@${body}"
}

# One job as JSON.
cat > "$work/job.json" <<'JSON'
{"categoryId": 1335, "description": "Boiler not working, no hot water since Monday.",
 "email": "shelley.bash@example.com", "phone": "07700 900101", "firstName": "Shelley", "lastName": "Bash",
 "postcode": "SW1A 1AA", "preferredStart": {"id": "URGENT"}}
JSON
status=$(send /v1/affiliate-job/jobs application/json "$work/job.json")
echo "$status $(cat "$work/answer")"
[ "$status" = 201 ] || exit 1

# One job with a photo: the job as JSON in a `data` field, the photo in an `images` field.
boundary="----intake-sample-$(openssl rand -hex 12)"
case "$photo" in
    *.png | *.PNG) photo_type=image/png ;;
    *) photo_type=image/jpeg ;;
esac
{
    printf -- '--%s\r\nContent-Disposition: form-data; name="data"\r\n\r\n' "$boundary"
    printf '%s' '{"categoryId": 1335, "description": "Leaking radiator valve in the hall, photo attached.", "email": "cora.curl@example.com", "phone": "07700 900102", "firstName": "Cora", "lastName": "Curl", "postcode": "SW1A 1AA", "preferredStart": {"id": "WITHIN_2_WEEKS"}}'
    printf '\r\n--%s\r\nContent-Disposition: form-data; name="images"; filename="%s"\r\nContent-Type: %s\r\n\r\n' \
        "$boundary" "$(basename "$photo")" "$photo_type"
    cat "$photo"
    printf '\r\n--%s--\r\n' "$boundary"
} > "$work/form"
status=$(send /v1/affiliate-job/jobs/with-attachments "multipart/form-data; boundary=${boundary}" "$work/form")
echo "$status $(cat "$work/answer")"
[ "$status" = 201 ]

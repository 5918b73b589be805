<?php
// Creates two jobs with PHP's curl and hash_hmac: one as JSON through POST /jobs, one with a photo
// through POST /jobs/with-attachments. Each request is signed (HTTP Signatures, hmac-sha256) over
// (request-target) host date digest content-length. PHP 7.4 or later with the curl extension.
//
//   INTAKE_BASE_URL=http://127.0.0.1:8080 INTAKE_KEY_ID=stg_... INTAKE_KEY_SECRET=... \
//     INTAKE_PHOTO=boiler.jpg php create_job.php
//
// Prints one line per job: the status, then the answer. Exits 1 unless both are 201.

$baseUrl = getenv('INTAKE_BASE_URL') ?: 'http://127.0.0.1:8080';
$keyId = getenv('INTAKE_KEY_ID');
$secret = getenv('INTAKE_KEY_SECRET');
$photo = getenv('INTAKE_PHOTO');
if (!$keyId || !$secret || !$photo) {
    fwrite(STDERR, "set INTAKE_KEY_ID, INTAKE_KEY_SECRET and INTAKE_PHOTO\n");
    exit(2);
}
$parts = parse_url($baseUrl);
$host = $parts['host'] . (isset($parts['port']) ? ':' . $parts['port'] : '');
const COVERED = '(request-target) host date digest content-length';

/** Signs and posts exactly $body; returns [status, answer]. */
function send(string $path, string $contentType, string $body): array
{
    global $baseUrl, $host, $keyId, $secret;
    $date = gmdate('D, d M Y H:i:s') . ' GMT';
    $digest = 'SHA-256=' . base64_encode(hash('sha256', $body, true));
    $signingString = implode("\n", [
        "(request-target): post $path",
        "host: $host",
        "date: $date",
        "digest: $digest",
        'content-length: ' . strlen($body),
    ]);
    $signature = base64_encode(hash_hmac('sha256', $signingString, $secret, true));
    $curl = curl_init($baseUrl . $path);
    curl_setopt_array($curl, [
        CURLOPT_POST => true,
        // A string body is sent as it is, so the digest holds.
        CURLOPT_POSTFIELDS => $body,
        CURLOPT_RETURNTRANSFER => true,
        CURLOPT_HTTPHEADER => [
            "Host: $host",
            "Date: $date",
            "Digest: $digest",
            "Content-Type: $contentType",
            'Content-Length: ' . strlen($body),
            'Idempotency-Key: ' . bin2hex(random_bytes(16)),
            // curl would otherwise send `Expect: 100-continue` and wait for a large body.
            'Expect:',
            "Authorization: Signature keyId=\"$keyId\",algorithm=\"hmac-sha256\",headers=\"" . COVERED . "\",signature=\"$signature\"",
        ],
    ]);
    $answer = curl_exec($curl);
    if ($answer === false) {
        fwrite(STDERR, 'request failed: ' . curl_error($curl) . "\n");
        exit(1);
    }
    $status = curl_getinfo($curl, CURLINFO_RESPONSE_CODE);
    curl_close($curl);
    return [$status, $answer];
}

/** The job in a `data` field and the photo in an `images` field, built by hand so that the
 *  bytes signed are the bytes sent. */
function multipart(array $job, string $photoPath): array
{
    $boundary = '----intake-sample-' . bin2hex(random_bytes(12));
    $name = basename($photoPath);
    $type = preg_match('/\.png$/i', $name) ? 'image/png' : 'image/jpeg';
    $body = "--$boundary\r\nContent-Disposition: form-data; name=\"data\"\r\n\r\n"
        . json_encode($job)
        . "\r\n--$boundary\r\nContent-Disposition: form-data; name=\"images\"; filename=\"$name\"\r\nContent-Type: $type\r\n\r\n"
        . file_get_contents($photoPath)
        . "\r\n--$boundary--\r\n";
    return ["multipart/form-data; boundary=$boundary", $body];
}

$job = [
    'categoryId' => 1335,
    'description' => 'Boiler not working, no hot water since Monday.',
    'email' => 'pippa.php@example.com',
    'phone' => '07700 900401',
    'firstName' => 'Pippa',
    'lastName' => 'Php',
    'postcode' => 'SW1A 1AA',
    'preferredStart' => ['id' => 'URGENT'],
];
$answers = [send('/v1/affiliate-job/jobs', 'application/json', json_encode($job))];
[$contentType, $body] = multipart(array_merge($job, [
    'email' => 'colin.curl@example.com',
    'phone' => '07700 900402',
    'firstName' => 'Colin',
    'lastName' => 'Curl',
    'description' => 'Leaking radiator valve in the hall, photo attached.',
]), $photo);
$answers[] = send('/v1/affiliate-job/jobs/with-attachments', $contentType, $body);
$ok = true;
foreach ($answers as [$status, $answer]) {
    echo "$status $answer\n";
    $ok = $ok && $status === 201;
}
exit($ok ? 0 : 1);

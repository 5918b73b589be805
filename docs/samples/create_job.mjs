// Creates two jobs with Node's fetch and crypto: one as JSON through POST /jobs, one with a photo
// through POST /jobs/with-attachments. Each request is signed (HTTP Signatures, hmac-sha256) over
// (request-target) host date digest content-length. Node 18 or later, no packages.
//
//   INTAKE_BASE_URL=http://127.0.0.1:8080 INTAKE_KEY_ID=stg_... INTAKE_KEY_SECRET=... \
//     INTAKE_PHOTO=boiler.jpg node create_job.mjs
//
// Prints one line per job: the status, then the answer. Exits 1 unless both are 201.
import { createHash, createHmac, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { basename } from "node:path";

const baseUrl = process.env.INTAKE_BASE_URL ?? "http://127.0.0.1:8080";
const keyId = process.env.INTAKE_KEY_ID;
const secret = process.env.INTAKE_KEY_SECRET;
const photoPath = process.env.INTAKE_PHOTO;
if (!keyId || !secret || !photoPath) {
  console.error("set INTAKE_KEY_ID, INTAKE_KEY_SECRET and INTAKE_PHOTO");
  process.exit(2);
}
const host = new URL(baseUrl).host;
const covered = "(request-target) host date digest content-length";

// Signs and posts exactly `body` (a Buffer). fetch sends Host and Content-Length itself, with the
// values signed here.
async function send(path, contentType, body) {
  const date = new Date().toUTCString();
  const digest = `SHA-256=${createHash("sha256").update(body).digest("base64")}`;
  const signingString = [
    `(request-target): post ${path}`,
    `host: ${host}`,
    `date: ${date}`,
    `digest: ${digest}`,
    `content-length: ${body.length}`,
  ].join("\n");
  const signature = createHmac("sha256", secret).update(signingString).digest("base64");
  const response = await fetch(baseUrl + path, {
    method: "POST",
    headers: {
      Date: date,
      Digest: digest,
      "Content-Type": contentType,
      "Idempotency-Key": randomUUID(),
      Authorization: `Signature keyId="${keyId}",algorithm="hmac-sha256",headers="${covered}",signature="${signature}"`,
    },
    body,
  });
  return { status: response.status, text: await response.text() };
}

// The job in a `data` field and the photo in an `images` field, built by hand so that the bytes
// signed are the bytes sent.
function multipart(job, path) {
  const boundary = `----intake-sample-${randomUUID()}`;
  const name = basename(path);
  const type = name.toLowerCase().endsWith(".png") ? "image/png" : "image/jpeg";
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="data"\r\n\r\n`),
    Buffer.from(JSON.stringify(job)),
    Buffer.from(`\r\n--${boundary}\r\nContent-Disposition: form-data; name="images"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`),
    readFileSync(path),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { contentType: `multipart/form-data; boundary=${boundary}`, body };
}

const job = {
  categoryId: 1335,
  description: "Boiler not working, no hot water since Monday.",
  email: "nadia.node@example.com",
  phone: "07700 900301",
  firstName: "Nadia",
  lastName: "Node",
  postcode: "SW1A 1AA",
  preferredStart: { id: "URGENT" },
};
const answers = [await send("/v1/affiliate-job/jobs", "application/json", Buffer.from(JSON.stringify(job)))];
const form = multipart(
  {
    ...job,
    email: "felix.fetch@example.com",
    phone: "07700 900302",
    firstName: "Felix",
    lastName: "Fetch",
    description: "Leaking radiator valve in the hall, photo attached.",
  },
  photoPath,
);
answers.push(await send("/v1/affiliate-job/jobs/with-attachments", form.contentType, form.body));
for (const answer of answers) console.log(`${answer.status} ${answer.text}`);
process.exit(answers.every((answer) => answer.status === 201) ? 0 : 1);

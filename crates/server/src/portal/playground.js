// The signature playground: draft-cavage HTTP Signatures with HMAC, built as the service checks them
// (SIGNATURES.md). The secret is only ever handed to the browser's Web Crypto; nothing here sends it.
"use strict";

const HASHES = { "hmac-sha1": "SHA-1", "hmac-sha256": "SHA-256", "hmac-sha512": "SHA-512" };
const SAMPLE_JOB = {
  categoryId: 1335,
  description: "Boiler not working, no hot water since Monday.",
  email: "sam.jones@example.com",
  phone: "07900 000000",
  firstName: "Sam",
  lastName: "Jones",
  postcode: "SW1A 1AA",
  preferredStart: { id: "URGENT" },
};

const $ = (id) => document.getElementById(id);
const encoder = new TextEncoder();

function base64(bytes) {
  let text = "";
  for (const byte of new Uint8Array(bytes)) text += String.fromCharCode(byte);
  return btoa(text);
}

// Spaces and tabs only, as the service trims header values.
function trimValue(value) {
  return value.replace(/^[ \t]+|[ \t]+$/g, "");
}

// `Name: value` lines into [lowercased name, value] pairs, in order; a blank line is skipped.
function parseHeaders(text) {
  const pairs = [];
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === "") continue;
    const colon = line.indexOf(":");
    if (colon < 1) throw new Error(`"${line}" is not a header line (Name: value)`);
    pairs.push([line.slice(0, colon).trim().toLowerCase(), trimValue(line.slice(colon + 1))]);
  }
  return pairs;
}

// Lowercased name -> value, several fields of one name joined with ", " in order.
function headerMap(pairs) {
  const map = new Map();
  for (const [name, value] of pairs) {
    map.set(name, map.has(name) ? `${map.get(name)}, ${value}` : value);
  }
  return map;
}

function coveredNames(text) {
  const names = text.trim().toLowerCase().split(/\s+/).filter((name) => name !== "");
  return names.length === 0 ? ["date"] : names;
}

function signingString(names, request, headers, created) {
  return names
    .map((name) => {
      if (name === "(request-target)") return `(request-target): ${request.method.toLowerCase()} ${request.path}`;
      if (name === "(created)") {
        if (created === undefined) throw new Error("(created) is covered but no created time is set");
        return `(created): ${created}`;
      }
      if (!headers.has(name)) throw new Error(`the covered header "${name}" is not in the request`);
      return `${name}: ${headers.get(name)}`;
    })
    .join("\n");
}

async function hmac(algorithm, secret, text) {
  const hash = HASHES[algorithm];
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash }, false, ["sign"]);
  return base64(await crypto.subtle.sign("HMAC", key, encoder.encode(text)));
}

async function sha256Digest(bytes) {
  return `SHA-256=${base64(await crypto.subtle.digest("SHA-256", bytes))}`;
}

function authorization(keyId, algorithm, names, defaulted, signature, created) {
  const parts = [`keyId="${keyId}"`, `algorithm="${algorithm}"`];
  if (created !== undefined) parts.push(`created=${created}`);
  if (!defaulted) parts.push(`headers="${names.join(" ")}"`);
  parts.push(`signature="${signature}"`);
  return `Signature ${parts.join(",")}`;
}

function shellQuote(text) {
  return `'${text.replace(/'/g, `'"'"'`)}'`;
}

// The form as a request: what is typed, plus the computed Digest and Content-Length where the
// typed headers do not give them and there is a body.
async function readForm() {
  const request = {
    keyId: $("keyId").value.trim(),
    secret: $("secret").value,
    algorithm: $("algorithm").value,
    method: $("method").value,
    path: $("path").value.trim(),
    host: $("host").value.trim(),
    date: $("date").value.trim(),
    body: $("body").value,
  };
  request.bytes = encoder.encode(request.body);
  request.extra = parseHeaders($("extra").value);
  const typed = headerMap(request.extra);
  request.digest = typed.get("digest") ?? (request.bytes.length > 0 ? await sha256Digest(request.bytes) : "");
  const pairs = [["host", request.host], ["date", request.date]];
  if (!typed.has("digest") && request.digest !== "") pairs.push(["digest", request.digest]);
  if (!typed.has("content-length") && request.bytes.length > 0) pairs.push(["content-length", String(request.bytes.length)]);
  request.headers = headerMap(pairs.concat(request.extra));
  return request;
}

async function sign(event) {
  if (event) event.preventDefault();
  $("problem").textContent = "";
  try {
    const request = await readForm();
    const defaulted = $("covered").value.trim() === "";
    const names = coveredNames($("covered").value);
    const text = signingString(names, request, request.headers);
    $("signingString").textContent = text;
    $("digest").textContent = request.digest === "" ? "(no body)" : `Digest: ${request.digest}`;
    if (request.secret === "") {
      $("authorization").textContent = "(type your key's secret to sign)";
      $("curl").textContent = "";
      return;
    }
    const signature = await hmac(request.algorithm, request.secret, text);
    const header = authorization(request.keyId, request.algorithm, names, defaulted, signature);
    $("authorization").textContent = `Authorization: ${header}`;
    $("authorization").dataset.signature = signature;
    const lines = [`curl -X ${request.method} ${shellQuote(`${location.protocol}//${request.host}${request.path}`)}`];
    const sent = [["Host", request.host], ["Date", request.date]];
    if (request.digest !== "" && !request.extra.some(([name]) => name === "digest")) sent.push(["Digest", request.digest]);
    for (const [name, value] of request.extra) sent.push([name, value]);
    sent.push(["Authorization", header]);
    for (const [name, value] of sent) lines.push(`  -H ${shellQuote(`${name}: ${value}`)}`);
    if (request.bytes.length > 0) lines.push(`  --data-binary ${shellQuote(request.body)}`);
    $("curl").textContent = lines.join(" \\\n");
  } catch (error) {
    $("problem").textContent = error.message;
  }
}

// The server's signing string, from the detail of a 401 for a signature that did not match:
// "... (lines separated by \n): LINES[; the (request-target) may also be relative to BASE]; sign
// exactly these lines ...". The markers are searched from the end, since the lines are the client's.
function serverSigningString(detail) {
  const start = "(lines separated by \\n): ";
  const from = detail.indexOf(start);
  const end = detail.lastIndexOf("; sign exactly these lines");
  if (from < 0 || end < from) return "";
  let lines = detail.slice(from + start.length, end);
  const relative = lines.lastIndexOf("; the (request-target) may also be relative to ");
  if (relative >= 0) lines = lines.slice(0, relative);
  return lines.split("\\n").join("\n");
}

// Sends the request from the page: `(created)` in place of `date`, without `host` and
// `content-length`, which a browser does not let a page set.
async function send() {
  // The outputs above show the same request, signed with Date, as your code would send it.
  await sign();
  if ($("problem").textContent !== "") return;
  try {
    const request = await readForm();
    if (request.secret === "") throw new Error("type your key's secret to send");
    const created = Math.floor(Date.now() / 1000);
    const forbidden = new Set(["host", "content-length", "date"]);
    let names = coveredNames($("covered").value).map((name) => (name === "date" ? "(created)" : name));
    names = names.filter((name) => !forbidden.has(name));
    const text = signingString(names, request, request.headers, created);
    const signature = await hmac(request.algorithm, request.secret, text);
    const headers = new Headers();
    for (const [name, value] of request.extra) {
      if (!forbidden.has(name)) headers.append(name, value);
    }
    if (request.digest !== "" && !headers.has("digest")) headers.set("Digest", request.digest);
    headers.set("Authorization", authorization(request.keyId, request.algorithm, names, false, signature, created));
    const init = { method: request.method, headers };
    if (request.method !== "GET" && request.method !== "HEAD") init.body = request.bytes;
    const response = await fetch(request.path, init);
    const answer = await response.text();
    $("sent").hidden = false;
    $("sentSigningString").textContent = text;
    $("status").textContent = `${response.status} ${response.statusText}`;
    $("status").className = response.ok ? "ok" : "error";
    let shown = answer;
    let detail = "";
    try {
      const json = JSON.parse(answer);
      shown = JSON.stringify(json, null, 2);
      detail = typeof json.detail === "string" ? json.detail : "";
    } catch (_) {
      // Not JSON: shown as it came.
    }
    $("answer").textContent = shown;
    $("serverSigningString").textContent =
      response.status === 401 ? serverSigningString(detail) || "(the 401 did not include one)" : "";
  } catch (error) {
    $("problem").textContent = error.message;
  }
}

function now() {
  $("date").value = new Date().toUTCString();
}

document.addEventListener("DOMContentLoaded", () => {
  $("host").value = location.host;
  now();
  $("body").value = JSON.stringify(SAMPLE_JOB, null, 2);
  $("request").addEventListener("submit", sign);
  $("now").addEventListener("click", () => {
    now();
    sign();
  });
  $("send").addEventListener("click", send);
  sign();
});

#!/usr/bin/env node
// Interoperability check: requests signed by npm `http-signature` 1.4.0 (Joyent's original reference
// implementation) against a running intake server.
//
// The server's own tests sign with the project's own signer, which cannot catch a mistake made the same
// way on both sides. Here the independent library computes every signature on a real http.ClientRequest,
// so the signing string is built from exactly what Node is about to send.
//
// Environment (same as the Python script):
//   INTAKE_BASE_URL         e.g. http://127.0.0.1:8080 (a server running with --environment staging)
//   INTAKE_KEY_ID           a staging key id          } from `intake keys create --json`
//   INTAKE_KEY_SECRET       its secret                }
//   INTAKE_PROD_KEY_ID      a production key id, same data dir: a staging server must refuse it
//   INTAKE_PROD_KEY_SECRET  its secret
//
// Prints one line per case, then `N passed, M failed`; exits 1 if any case failed, 2 on bad usage.

'use strict';

const crypto = require('crypto');
const http = require('http');

let httpSignature;
try {
  httpSignature = require('http-signature');
} catch (err) {
  process.stderr.write('http-signature is not installed: run tests/interop/install.sh\n');
  process.exit(2);
}

// The full path is what a generic signing library computes; the server also accepts it relative to the
// base path (the marketplace's documented form), which gets one case of its own below.
const BASE_PATH = '/v1/affiliate-job';
const PATH = BASE_PATH + '/preferred-start-options';
const RELATIVE_PATH = '/preferred-start-options';

const ALGORITHMS = ['hmac-sha1', 'hmac-sha256', 'hmac-sha512'];
const FULL_COVERAGE = ['(request-target)', 'host', 'date', 'digest', 'content-length'];

// A GET normally has no body; this endpoint reads one anyway so that digest checking can be exercised
// on a request with no side effects. The tampered body has the same length so Content-Length stays true
// and only the digest can catch the change.
const BODY = Buffer.from('{"hello": "world"}');
const TAMPERED_BODY = Buffer.from('{"hello": "WORLD"}');
if (BODY.length !== TAMPERED_BODY.length) throw new Error('tampered body must keep the length');

const PROBLEM_MEMBERS = ['detail', 'instance', 'status', 'title', 'type'];

function env(name) {
  const value = process.env[name];
  if (!value) {
    process.stderr.write(`missing environment variable ${name} (see the header of ${__filename})\n`);
    process.exit(2);
  }
  return value;
}

function sha256Digest(body) {
  return 'SHA-256=' + crypto.createHash('sha256').update(body).digest('base64');
}

// One request, signed by http-signature and then sent.
//   coverage: undefined lets the library use its default (`date` only, no `headers` parameter),
//             the draft's default that the server must apply on its own.
//   signedPath / sentPath: the request is built for signedPath; a different sentPath is swapped in
//             after signing (Node writes the request line only at end()), i.e. the path was tampered
//             with in transit.
//   body / sentBody: the Digest is computed over `body`; `sentBody` is what goes on the wire.
//   date: a Date value to sign; by default the library adds the current time itself.
function signedRequest(base, opts) {
  const signedPath = opts.signedPath || PATH;
  const sentPath = opts.sentPath || signedPath;
  return new Promise((resolve) => {
    const headers = { Accept: 'application/json' };
    if (opts.date) headers.Date = opts.date;
    if (opts.body) {
      headers['Content-Type'] = 'application/json';
      headers['Content-Length'] = String(opts.body.length);
      headers.Digest = sha256Digest(opts.body);
    }
    const req = http.request({
      hostname: base.hostname,
      port: base.port,
      method: 'GET',
      path: signedPath,
      headers,
      agent: false, // one connection per case: no state carried from one case to the next
      timeout: 30000,
    });
    let sent;
    req.on('response', (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks), sent }));
      res.on('error', (err) => resolve({ error: err, sent }));
    });
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', (err) => resolve({ error: err, sent }));

    const signOptions = { keyId: opts.keyId, key: opts.secret, algorithm: opts.algorithm };
    if (opts.coverage) signOptions.headers = opts.coverage;
    try {
      // Node sets Host in the constructor, so `host` is signed with the exact value that is sent.
      httpSignature.sign(req, signOptions);
    } catch (err) {
      // A signing error fails this case; the unsent request must not hold the process open.
      req.destroy();
      resolve({ error: new Error(`signing failed: ${err.message}`) });
      return;
    }
    sent = { path: sentPath, headers: req.getHeaders() };
    req.path = sentPath;
    req.end(opts.sentBody || opts.body);
  });
}

function checkOptions(answer) {
  if (answer.status !== 200) return `expected 200, got ${answer.status}: ${answer.body.toString().slice(0, 500)}`;
  let options;
  try {
    options = JSON.parse(answer.body);
  } catch (err) {
    return `200 body is not JSON: ${answer.body.toString().slice(0, 200)}`;
  }
  if (!Array.isArray(options) || options.length !== 5) return `expected a list of 5 options, got ${JSON.stringify(options)}`;
  if (options[0].id !== 'FLEXIBLE') return `first option is ${JSON.stringify(options[0])}, expected id FLEXIBLE`;
  return null;
}

function checkUnauthorized(answer) {
  if (answer.status !== 401) return `expected 401, got ${answer.status}: ${answer.body.toString().slice(0, 500)}`;
  const contentType = answer.headers['content-type'] || '';
  if (!contentType.startsWith('application/problem+json')) {
    return `401 content-type is ${JSON.stringify(contentType)}, expected application/problem+json`;
  }
  const challenge = answer.headers['www-authenticate'] || '';
  if (challenge.split(' ')[0].toLowerCase() !== 'signature') {
    return `401 WWW-Authenticate is ${JSON.stringify(challenge)}, expected a Signature challenge`;
  }
  let problem;
  try {
    problem = JSON.parse(answer.body);
  } catch (err) {
    return `401 body is not JSON: ${answer.body.toString().slice(0, 200)}`;
  }
  const members = problem && typeof problem === 'object' ? Object.keys(problem).sort() : [];
  if (members.join(',') !== PROBLEM_MEMBERS.join(',')) {
    return `401 problem members are ${JSON.stringify(members)}, expected exactly ${JSON.stringify(PROBLEM_MEMBERS)}`;
  }
  if (problem.status !== 401) return `problem status is ${JSON.stringify(problem.status)}, expected 401`;
  return null;
}

function httpDate(offsetSeconds) {
  return new Date(Date.now() + offsetSeconds * 1000).toUTCString();
}

async function main() {
  const baseUrl = new URL(env('INTAKE_BASE_URL'));
  if (baseUrl.protocol !== 'http:') {
    process.stderr.write(`INTAKE_BASE_URL must be http://HOST:PORT, got ${baseUrl}\n`);
    process.exit(2);
  }
  const base = { hostname: baseUrl.hostname, port: Number(baseUrl.port || 80) };
  const keyId = env('INTAKE_KEY_ID');
  const secret = env('INTAKE_KEY_SECRET');
  const prodKeyId = env('INTAKE_PROD_KEY_ID');
  const prodSecret = env('INTAKE_PROD_KEY_SECRET');

  const version = require('http-signature/package.json').version;
  console.log(`http-signature ${version} against ${baseUrl.host}`);

  const staging = { keyId, secret };
  // The reference for the tampered cases: full coverage with hmac-sha256, accepted as it is. Each
  // tampered case changes exactly one thing, so a 401 can only come from that thing.
  const good = { ...staging, algorithm: 'hmac-sha256', coverage: FULL_COVERAGE, body: BODY };

  const cases = [];
  for (const algorithm of ALGORITHMS) {
    cases.push([`${algorithm} date only`, checkOptions, { ...staging, algorithm }]);
    cases.push([`${algorithm} full coverage + digest`, checkOptions,
      { ...staging, algorithm, coverage: FULL_COVERAGE, body: BODY }]);
  }
  cases.push(['hmac-sha256 relative (request-target)', checkOptions,
    { ...good, signedPath: RELATIVE_PATH, sentPath: PATH }]);

  cases.push(['tampered: query added after signing', checkUnauthorized, { ...good, sentPath: PATH + '?x=1' }]);
  // Signed for another endpoint, sent to this one: the route exists, so only the signature can refuse it.
  cases.push(['tampered: signed for another path', checkUnauthorized,
    { ...good, signedPath: BASE_PATH + '/jobs', sentPath: PATH }]);
  cases.push(['tampered: body changed, digest signed', checkUnauthorized, { ...good, sentBody: TAMPERED_BODY }]);
  cases.push(['tampered: date 10 minutes old', checkUnauthorized, { ...good, date: httpDate(-600) }]);
  cases.push(['tampered: wrong secret', checkUnauthorized, { ...good, secret: secret + '-wrong' }]);
  cases.push(['tampered: production key on staging server', checkUnauthorized,
    { ...good, keyId: prodKeyId, secret: prodSecret }]);

  let passed = 0;
  let failed = 0;
  for (const [name, check, opts] of cases) {
    const answer = await signedRequest(base, opts);
    const problem = answer.error ? `request failed: ${answer.error.message}` : check(answer);
    if (problem === null) {
      passed += 1;
      let extra = '';
      if (answer.status === 401) {
        // The detail is for integrators; showing it makes a wrong-reason 401 easy to spot.
        try { extra = ` (${JSON.parse(answer.body).detail})`; } catch (err) { /* checked above */ }
      }
      console.log(`ok    node ${name}: ${answer.status}${extra}`);
    } else {
      failed += 1;
      console.log(`FAIL  node ${name}: ${problem}`);
      if (answer.sent) {
        const body = (opts.sentBody || opts.body || '').toString();
        console.log(`      sent GET ${answer.sent.path} headers=${JSON.stringify(answer.sent.headers)} body=${JSON.stringify(body)}`);
      }
    }
  }

  console.log(`${passed} passed, ${failed} failed`);
  return failed ? 1 : 0;
}

main().then((code) => { process.exitCode = code; }, (err) => {
  console.error(err);
  process.exitCode = 1;
});

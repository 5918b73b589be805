#!/usr/bin/env bash
# Installs the independent HTTP-signature clients used by the interoperability test
# (crates/cli/tests/interop.rs): PyPI httpsig 1.3.0 and npm http-signature 1.4.0,
# PyPI openapi-spec-validator to check the OpenAPI document independently, PyPI aiosmtpd as the
# SMTP sink of the e-mail lead test, and PyPI schemathesis to fuzz the served API against its own
# OpenAPI document (crates/cli/tests/hostile/schemathesis.rs), Debian's prometheus for promtool, and
# Debian's chromium and chromium-driver for the portal's browser test, and the samples' runtimes.
#
# Idempotent: each step is skipped when the pinned version is already in place, so CI can call it on
# every run. Exits non-zero when anything cannot be installed, so a required interop run fails early
# with the real cause instead of as a skipped test.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
python="${PYTHON:-python3}"
httpsig_version="1.3.0"
validator_version="0.9.0"

# pip_install REQUIREMENT: into the machine's Python (the machines run as root with a non-system Python;
# the root warning is noise there). A Debian-managed Python refuses installs outside a venv (PEP 668);
# these are test-only packages, so installing into it anyway is acceptable.
pip_install() {
    export PIP_ROOT_USER_ACTION=ignore PIP_DISABLE_PIP_VERSION_CHECK=1
    "$python" -m pip install --quiet "$1" || "$python" -m pip install --quiet --break-system-packages "$1"
}

have_httpsig() {
    "$python" - "$httpsig_version" <<'PY' 2>/dev/null
import importlib.metadata, sys
import httpsig  # noqa: F401  (importable, not just recorded in metadata)
sys.exit(importlib.metadata.version("httpsig") != sys.argv[1])
PY
}

if have_httpsig; then
    echo "interop: httpsig ${httpsig_version} already installed"
else
    echo "interop: installing httpsig==${httpsig_version}"
    pip_install "httpsig==${httpsig_version}"
    have_httpsig || { echo "interop: httpsig ${httpsig_version} still not importable by $python" >&2; exit 1; }
fi

if "$python" -c "import importlib.metadata, sys; sys.exit(importlib.metadata.version('openapi-spec-validator') != '${validator_version}')" 2>/dev/null; then
    echo "interop: openapi-spec-validator ${validator_version} already installed"
else
    echo "interop: installing openapi-spec-validator==${validator_version}"
    pip_install "openapi-spec-validator==${validator_version}"
fi

# PyPI aiosmtpd: the real SMTP sink of the e-mail lead test (crates/server/tests/api/delivery.rs).
aiosmtpd_version="1.4.6"
if "$python" -c "import aiosmtpd, importlib.metadata, sys; sys.exit(importlib.metadata.version('aiosmtpd') != '${aiosmtpd_version}')" 2>/dev/null; then
    echo "interop: aiosmtpd ${aiosmtpd_version} already installed"
else
    echo "interop: installing aiosmtpd==${aiosmtpd_version}"
    pip_install "aiosmtpd==${aiosmtpd_version}"
fi

# PyPI schemathesis: generates requests from the OpenAPI document and checks every answer against it.
schemathesis_version="4.32.5"
if "$python" -c "import schemathesis, importlib.metadata, sys; sys.exit(importlib.metadata.version('schemathesis') != '${schemathesis_version}')" 2>/dev/null; then
    echo "interop: schemathesis ${schemathesis_version} already installed"
else
    echo "interop: installing schemathesis==${schemathesis_version}"
    pip_install "schemathesis==${schemathesis_version}"
fi

# Debian's prometheus package: its promtool lints the metrics scrape (crates/cli/tests/cli/metrics.rs).
# The package's own server is not started (no init system runs it here).
if command -v promtool >/dev/null 2>&1; then
    echo "interop: promtool already installed"
else
    echo "interop: installing Debian's prometheus (for promtool)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y --no-install-recommends prometheus >/dev/null \
        || { apt-get update >/dev/null && apt-get install -y --no-install-recommends prometheus >/dev/null; }
    command -v promtool >/dev/null 2>&1 || { echo "interop: promtool still missing" >&2; exit 1; }
fi

# Debian's chromium and chromium-driver: the developer portal's browser test (crates/cli/tests/cli/portal.rs).
if command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1; then
    echo "interop: chromium and chromedriver already installed"
else
    echo "interop: installing Debian's chromium and chromium-driver"
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y --no-install-recommends chromium chromium-driver >/dev/null \
        || { apt-get update >/dev/null && apt-get install -y --no-install-recommends chromium chromium-driver >/dev/null; }
    command -v chromedriver >/dev/null 2>&1 || { echo "interop: chromedriver still missing" >&2; exit 1; }
fi

# The samples' runtimes (crates/cli/tests/cli/samples.rs, docs/samples/): Debian's php-cli and php-curl,
# a Java runtime, and PyPI requests; bash, curl, openssl and node are on the machine already.
if command -v php >/dev/null 2>&1 && php -m | grep -qx curl && command -v java >/dev/null 2>&1; then
    echo "interop: php (with curl) and java already installed"
else
    echo "interop: installing Debian's php-cli, php-curl and a Java runtime"
    export DEBIAN_FRONTEND=noninteractive
    packages="php-cli php-curl"
    command -v java >/dev/null 2>&1 || packages="$packages default-jdk-headless"
    # shellcheck disable=SC2086 # the list is words
    apt-get install -y --no-install-recommends $packages >/dev/null \
        || { apt-get update >/dev/null && apt-get install -y --no-install-recommends $packages >/dev/null; }
fi
for tool in bash curl openssl node php java; do
    command -v "$tool" >/dev/null 2>&1 || { echo "interop: $tool is missing (the samples need it)" >&2; exit 1; }
done
if "$python" -c "import requests" 2>/dev/null; then
    echo "interop: requests already installed"
else
    echo "interop: installing requests"
    pip_install "requests==2.32.3"
fi

cd "$here/node"
# `npm ls` fails when node_modules does not match package-lock.json (missing, extra or wrong versions).
if [ -d node_modules ] && npm ls --all >/dev/null 2>&1; then
    echo "interop: node_modules already matches package-lock.json"
else
    echo "interop: npm ci in tests/interop/node"
    # ci, not install: exactly the locked tree, and never a rewritten lock file.
    npm ci --no-audit --no-fund --loglevel=error
fi
node -e 'const v = require("http-signature/package.json").version; if (v !== "1.4.0") { console.error("http-signature is " + v); process.exit(1); }'
echo "interop: ready"

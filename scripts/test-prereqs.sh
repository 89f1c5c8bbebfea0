#!/usr/bin/env bash
# What the test suite needs beyond npm packages, installed when missing so that `npm test`
# works on a fresh machine: Debian's chromium for the browser test of the CLI login page.
# PostgreSQL and Redis are services of the machine; .ci/run starts them when they are down.
set -euo pipefail
if [ ! -x /usr/bin/chromium ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
    echo "test-prereqs: installing Debian's chromium for the browser tests"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq chromium >/dev/null
  else
    echo "test-prereqs: /usr/bin/chromium is missing; install it (apt-get install chromium) for tests/e2e" >&2
  fi
fi

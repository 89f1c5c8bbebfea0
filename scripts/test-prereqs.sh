#!/usr/bin/env bash
# What the test suite needs beyond npm packages, installed when missing so that `npm test`
# works on a fresh machine: Debian's chromium for the browser tests, and curl and jq, which
# README's and docs/cli.md's recipes use (tests/cli/docs-recipes.test.ts runs them as written).
# PostgreSQL and Redis are services of the machine; .ci/run starts them when they are down.
set -euo pipefail
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
command -v curl >/dev/null || missing+=(curl)
command -v jq >/dev/null || missing+=(jq)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
    echo "test-prereqs: installing Debian's ${missing[*]} for the tests"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    echo "test-prereqs: missing ${missing[*]}; install them (apt-get install ${missing[*]}) for tests/e2e and tests/cli/docs-recipes" >&2
  fi
fi

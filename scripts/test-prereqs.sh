#!/usr/bin/env bash
# What the test suite needs beyond npm packages, installed when missing so that `npm test`
# works on a fresh machine: Debian's chromium for the browser tests, curl and jq, which
# README's and docs/cli.md's recipes use (tests/cli/docs-recipes.test.ts runs them as written),
# and Redis for the queue tests.
# PostgreSQL is needed only for the second pass (DATABASE_URL=postgres://...; .ci/run starts it);
# Redis is started below when it is installed and down.
set -euo pipefail
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
command -v curl >/dev/null || missing+=(curl)
command -v jq >/dev/null || missing+=(jq)
redis_up() { redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 || (exec 3<>/dev/tcp/127.0.0.1/6379) 2>/dev/null; }
# The queue tests (BullMQ, the Redis-backed limiter) need Redis on 127.0.0.1:6379 (or TEST_REDIS_URL).
[ -n "${TEST_REDIS_URL:-}" ] || redis_up || command -v redis-server >/dev/null || missing+=(redis-server)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
    echo "test-prereqs: installing Debian's ${missing[*]} for the tests"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    echo "test-prereqs: missing ${missing[*]}; install them (apt-get install ${missing[*]}): the browser tests, the docs recipes and the queue tests need them" >&2
  fi
fi
# A throwaway Redis when none answers (no persistence, loopback only).
if [ -z "${TEST_REDIS_URL:-}" ] && ! redis_up && command -v redis-server >/dev/null; then
  echo "test-prereqs: starting Redis on 127.0.0.1:6379 for the queue tests"
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no >/dev/null
  for _ in $(seq 1 50); do redis_up && break; sleep 0.2; done
fi

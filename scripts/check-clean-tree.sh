#!/usr/bin/env bash
# Fails when the working tree differs from the last commit (modified, deleted or untracked
# files that .gitignore does not cover). CI runs it right after `npm install` on a fresh clone:
# an install that rewrites package-lock.json means the committed lockfile is not the one
# `npm install` produces here, and every developer's clone would drift the same way.
set -euo pipefail
changes=$(git status --porcelain)
if [ -n "$changes" ]; then
  echo "${1:-check}: the working tree changed; commit what npm install produces (or fix .gitignore):" >&2
  printf '%s\n' "$changes" >&2
  git --no-pager diff --stat >&2
  exit 1
fi

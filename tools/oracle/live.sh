#!/usr/bin/env bash
# tools/oracle/live.sh: the live oracle, as CI runs it after the test suite.
# Installs the pinned clients from npm (into $MNEMOLINT_ORACLE_NPM, default ~/.cache/mnemolint-oracle/npm),
# records every case into a temp dir, fails (printing the diff) if that differs from tests/oracle/, then
# replays the fresh recording against mnemolint (tests/test_oracle_replay.py). The clients go in groups
# (CLIENT_GROUPS below), each installed and recorded on its own: where a group cannot be installed or run
# offline here (no npm, no registry, no network namespace), it prints one line
# "SKIP: live oracle: <clients>: <why>", its committed fixtures stand in for the fresh ones, and the
# other groups still run: the committed fixtures were replayed by pytest anyway.
set -uo pipefail
cd "$(dirname "$0")/../.."
PY=${PYTHON:-.venv/bin/python}
[ -x "$PY" ] || PY=python3
CLIENT_GROUPS=("claude codex" "gemini-cli" "opencode")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mnemolint-live.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/fixtures"
start=$SECONDS
status=0
recorded=0
for group in "${CLIENT_GROUPS[@]}"; do
  args=()
  for client in $group; do args+=(--client "$client"); done
  "$PY" tools/oracle/record.py --install "${args[@]}" --out "$tmp/fixtures" 2>"$tmp/record.err"
  rc=$?
  if [ "$rc" -eq 3 ]; then
    echo "SKIP: live oracle: ${group// /, }: $(sed -n 's/^record.py: cannot run the oracle here: //p' "$tmp/record.err" | head -1)"
    for client in $group; do cp -r "tests/oracle/$client" "$tmp/fixtures/"; done
    continue
  fi
  cat "$tmp/record.err" >&2
  if [ "$rc" -ne 0 ]; then echo "live oracle: FAILED: the recording of ${group// /, } failed (above)" >&2; exit 1; fi
  recorded=1
  for client in $group; do
    if ! diff -ru "tests/oracle/$client" "$tmp/fixtures/$client"; then
      echo "live oracle: FAILED: $client no longer sends what tests/oracle/$client records (diff above);" \
           "if that is intended, re-record with: python tools/oracle/record.py --install --client $client" >&2
      status=1
    fi
  done
done
[ "$recorded" -eq 1 ] || exit 0
MNEMOLINT_ORACLE_FIXTURES="$tmp/fixtures" "$PY" -m pytest -q -p no:cacheprovider tests/test_oracle_replay.py || status=1
echo "live oracle: $((SECONDS - start)) s, $([ $status -eq 0 ] && echo agrees || echo FAILED)"
exit $status

#!/usr/bin/env bash
# tools/oracle/live.sh: the live oracle, as CI runs it after the test suite.
# Installs the pinned clients from npm (into $MNEMOLINT_ORACLE_NPM, default ~/.cache/mnemolint-oracle/npm),
# records every case into a temp dir, fails (printing the diff) if that differs from tests/oracle/, then
# replays the fresh recording against mnemolint (tests/test_oracle_replay.py). Each group of clients
# (Claude Code and Codex; Gemini CLI) is installed and recorded on its own: where one cannot be
# installed or run offline here (no npm, no registry, no network namespace), it prints one line
# "SKIP: live oracle: <why>" and its committed fixtures stand in for it (pytest replayed them anyway);
# with every group skipped it exits 0 at once.
set -uo pipefail
cd "$(dirname "$0")/../.."
PY=${PYTHON:-.venv/bin/python}
[ -x "$PY" ] || PY=python3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mnemolint-live.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
start=$SECONDS
status=0
recorded=0
for group in "claude codex" "gemini-cli"; do
  args=()
  for client in $group; do args+=(--client "$client"); done
  "$PY" tools/oracle/record.py --install "${args[@]}" --out "$tmp/fixtures" 2>"$tmp/record.err"
  rc=$?
  if [ "$rc" -eq 3 ]; then
    why=$(sed -n 's/^record.py: cannot run the oracle here: //p' "$tmp/record.err" | head -1)
    echo "SKIP: live oracle: $([ "$group" = gemini-cli ] && echo "gemini-cli: ")$why"
    for client in $group; do mkdir -p "$tmp/fixtures" && cp -r "tests/oracle/$client" "$tmp/fixtures/"; done
    continue
  fi
  cat "$tmp/record.err" >&2
  if [ "$rc" -ne 0 ]; then echo "live oracle: FAILED: the recording of $group failed (above)" >&2; exit 1; fi
  recorded=1
done
[ "$recorded" -eq 1 ] || exit 0
if ! diff -ru tests/oracle "$tmp/fixtures"; then
  echo "live oracle: FAILED: the clients no longer send what tests/oracle/ records (diff above);" \
       "if that is intended, re-record with: python tools/oracle/record.py --install" >&2
  status=1
fi
MNEMOLINT_ORACLE_FIXTURES="$tmp/fixtures" "$PY" -m pytest -q -p no:cacheprovider tests/test_oracle_replay.py || status=1
echo "live oracle: $((SECONDS - start)) s, $([ $status -eq 0 ] && echo agrees || echo FAILED)"
exit $status

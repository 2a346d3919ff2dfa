#!/usr/bin/env bash
# tools/oracle/live.sh: the live oracle, as CI runs it after the test suite.
# Installs the pinned clients from npm (into $MNEMOLINT_ORACLE_NPM, default ~/.cache/mnemolint-oracle/npm),
# records every case into a temp dir, fails (printing the diff) if that differs from tests/oracle/, then
# replays the fresh recording against mnemolint (tests/test_oracle_replay.py). Where the clients cannot
# be installed or run offline here (no npm, no registry, no network namespace), it prints one line
# "SKIP: live oracle: <why>" and exits 0: the committed fixtures were replayed by pytest anyway.
set -uo pipefail
cd "$(dirname "$0")/../.."
PY=${PYTHON:-.venv/bin/python}
[ -x "$PY" ] || PY=python3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mnemolint-live.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
start=$SECONDS
"$PY" tools/oracle/record.py --install --out "$tmp/fixtures" 2>"$tmp/record.err"
rc=$?
if [ "$rc" -eq 3 ]; then
  echo "SKIP: live oracle: $(sed -n 's/^record.py: cannot run the oracle here: //p' "$tmp/record.err" | head -1)"
  exit 0
fi
cat "$tmp/record.err" >&2
if [ "$rc" -ne 0 ]; then echo "live oracle: FAILED: the recording failed (above)" >&2; exit 1; fi
status=0
if ! diff -ru tests/oracle "$tmp/fixtures"; then
  echo "live oracle: FAILED: the clients no longer send what tests/oracle/ records (diff above);" \
       "if that is intended, re-record with: python tools/oracle/record.py --install" >&2
  status=1
fi
MNEMOLINT_ORACLE_FIXTURES="$tmp/fixtures" "$PY" -m pytest -q -p no:cacheprovider tests/test_oracle_replay.py || status=1
echo "live oracle: $((SECONDS - start)) s, $([ $status -eq 0 ] && echo agrees || echo FAILED)"
exit $status

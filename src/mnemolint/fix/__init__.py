"""The fix path: apply fixes in memory (`fixer`), generate index lines (`generate`), write (`writer`)."""

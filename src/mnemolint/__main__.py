"""`python -m mnemolint`."""

from mnemolint.cli import main

raise SystemExit(main())

"""The language server of `mnemolint server` (commands/server.py), for editors.

`session.py` holds what the server knows (the workspace folders, their settings, the editor's
buffers) and lints with it; `positions.py` turns mnemolint's lines, columns and offsets into the
protocol's positions; `actions.py` the code actions (fixes, fix all, suppression comments);
`navigation.py` hover, document links and the code lens; `server.py` wires them to pygls and
lsprotocol, which only it imports (the `[server]` extra).
"""

"""What each agent's client really does, one module per agent: the facts the reader profiles,
rules and commands read, each with the client version it was verified on and the oracle case
that shows it."""

"""Reader profiles of the agents, one module per agent and client version (`claude_code`)."""

"""Reading and parsing: each file read once, decoded once, split once, parsed lazily."""

"""Discovery: one walk of the tree, every file classified by the kind registry."""

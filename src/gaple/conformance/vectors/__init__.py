"""The test vectors and their coverage: the situations a hand reaches, the feature tags, the
case format and how cases are built (scripted scenarios, searched and random hands, hands drawn
and tailored to a scope), the committed vector set and the schemas of its files."""

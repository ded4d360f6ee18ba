"""Seeded-bug variants of the example engine, one classic defect per module."""

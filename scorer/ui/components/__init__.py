"""Declarative Flet components, one per file; each is a function of its screen's model."""

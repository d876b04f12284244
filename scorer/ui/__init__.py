"""The Flet user interface. ``python -m scorer.ui`` serves it; the engine never imports it."""

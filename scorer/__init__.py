"""Rummy Scorer: a score keeper and rules referee for rummy-family card games.

The engine (everything in this package but the UI) is pure Python: cards,
rulesets, meld checks, the arrangement solver and the referees.
"""

from __future__ import annotations

__version__ = "0.1.0"

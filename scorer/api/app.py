"""The club server's HTTP API as one FastAPI app: the sync API (:mod:`scorer.api.facts`)
under ``/api/v1``, with CORS for the origins given (the static phone build's, so a browser may
call it). ``rummy app`` serves it under ``/api/`` beside the app (:mod:`scorer.ui.serving`);
tokens, not the app's access code, guard it.
"""

from __future__ import annotations

from collections.abc import Sequence

from fastapi import FastAPI
from fastapi.middleware.cors import CORSMiddleware

from scorer.api.facts import Gate, facts_router
from scorer.league.store import Store
from scorer.league.sync import API_PATH


def api_app(store: Store, gate: Gate, *, cors_origins: Sequence[str] = ()) -> FastAPI:
    """The API on ``store``, each request's token checked by ``gate``; a browser page from
    one of ``cors_origins`` (``https://club.example``) may call it (none by default)."""
    app = FastAPI(title="Rummy Scorer club server", docs_url=None, redoc_url=None, openapi_url=None)
    app.include_router(facts_router(store, gate), prefix=API_PATH)
    if cors_origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=list(cors_origins),
            allow_methods=["GET", "POST"],
            allow_headers=["Authorization", "Content-Type"],
            max_age=600,
        )
    return app


__all__ = ["api_app"]

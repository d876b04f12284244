"""The club server's HTTP API: who may call it (:mod:`scorer.api.auth`), and what it serves."""

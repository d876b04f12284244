"""The app as a static web build that runs inside the phone's browser (Pyodide), offline.

- :mod:`scorer.web.build` makes the folder (``python -m scorer.web.build dist/web``): Flet's
  web client and Pyodide runtime from the ``flet-web`` package, this package and every wheel
  it needs at run time, a web app manifest, icons and a service worker.
- :mod:`scorer.web.offline` is the build's last steps: the ``.gz`` copies a first visit
  downloads, the service worker's lists of what to keep offline, every file readable by all.
- :mod:`scorer.web.startup` lists what the phone's first screen leaves for later.
- :mod:`scorer.web.main` is what the browser runs: it opens the league store in the
  browser's persistent storage (:mod:`scorer.web.browser_store`) and starts the same app as
  ``rummy app`` (:func:`scorer.ui.app.app_main`).

Only :mod:`scorer.web.main` and :mod:`scorer.web.browser_store` run in the browser; the build
runs on the host and never imports Flet's server or the browser's modules.
"""

"""The app's screens, one module per screen with its view-model (plain Python, tested without Flet)."""

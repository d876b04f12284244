"""The league: stored games, players, seasons, and the standings and ratings computed from them."""

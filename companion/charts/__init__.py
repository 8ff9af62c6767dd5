"""After the game: each game's course from its log, drawn as SVG, and its play for BG Stats."""

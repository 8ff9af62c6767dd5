"""Rules lookup: entries in our own words (data/*.json) and a fast search over them (search.py)."""

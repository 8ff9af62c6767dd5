"""Made-up Age of Assassins deck lists for tests only (a real one is typed in from the box)."""

BASE_DECK = [
    {"name": "Magician", "number": 1, "copies": 4},
    {"name": "Grave Digger", "number": 2, "copies": 3},
    {"name": "Soldier", "number": 3, "copies": 5},
    {"name": "Cook", "number": 4, "copies": 4},
    {"name": "Card E", "number": 5, "copies": 6},
    {"name": "Card F", "number": 6, "copies": 6},
]
WIZARD = {"name": "Wizard", "number": 1, "copies": 1}
CHEF = {"name": "Chef", "number": 4, "copies": 1}

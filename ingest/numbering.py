"""How the books number their laws: Roman numerals, lettered labels, and the successor rule that
decides whether a number continues a sequence. Shared by segmentation (which labels number a
code) and the citation resolver (which law a cited number means)."""

from __future__ import annotations

# an upper-case Roman numeral from I to CCCXCIX (lower-case: ROMAN.lower())
ROMAN = r"(?=[IVXLC])C{0,3}(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})"
_ROMAN_VALUES = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100}

Key = tuple[int, int]  # (number, letter): 47 → (47, 0), 47a → (47, 1), B. → (2, 0)


def roman_value(s: str) -> int:
    """Value of a Roman numeral in either case: ``xii`` → 12, ``XIV`` → 14. Raises
    :class:`KeyError` for a character that is not a Roman digit."""
    total = 0
    vals = [_ROMAN_VALUES[ch] for ch in s.lower()]
    for i, v in enumerate(vals):
        total += -v if i + 1 < len(vals) and vals[i + 1] > v else v
    return total


def letter_value(letter: str) -> int:
    """Position of a label letter in the alphabet: ``a``/``A`` → 1, ``h`` → 8."""
    return ord(letter.lower()) - ord("a") + 1


def is_successor(prev: Key, key: Key) -> bool:
    """``key`` continues ``prev``: 31 → 32, 47 → 47a, 47a → 47b, 47a → 48."""
    n, s = prev
    return key in ((n + 1, 0), (n, s + 1))

"""The macro figures the situation model is measured by (``ingest.evaluate.situations.macro``),
on label columns counted by hand."""

from __future__ import annotations

import numpy as np

from ingest.evaluate.situations import macro


def column(positives: int, predicted: int, correct: int, laws: int = 40) -> tuple[np.ndarray, np.ndarray]:
    """One label: ``positives`` true laws, ``predicted`` proposed, ``correct`` of them true."""
    truth = np.zeros(laws, dtype=int)
    truth[:positives] = 1
    guess = np.zeros(laws, dtype=int)
    guess[positives - correct:positives - correct + predicted] = 1
    assert (truth & guess).sum() == correct and guess.sum() == predicted
    return truth, guess


def test_macro_averages_the_labels_with_ten_or_more_laws():
    a = column(12, 10, 9)  # P 0.9, R 0.75
    b = column(3, 3, 1)  # 3 laws: left out of the macro figures
    c = column(10, 0, 0)  # never proposed: P 0, R 0
    d = column(20, 25, 20)  # P 0.8, R 1
    truth = np.stack([x[0] for x in (a, b, c, d)], axis=1)
    predicted = np.stack([x[1] for x in (a, b, c, d)], axis=1)
    p, r = macro(truth, predicted)
    assert np.isclose(p, (0.9 + 0.0 + 0.8) / 3) and np.isclose(r, (0.75 + 0.0 + 1.0) / 3)
    p, r = macro(truth, predicted, least=3)  # b counts: P 1/3, R 1/3
    assert np.isclose(p, (0.9 + 1 / 3 + 0.0 + 0.8) / 4) and np.isclose(r, (0.75 + 1 / 3 + 0.0 + 1.0) / 4)

"""The Python client's own implementation of the mechanism, which verify() replays a revealed board with.

It must draw exactly what the server draws: these are the golden values of the server's
test/unit/golden-transcript.test.ts (the same secret, team and queries), recorded from the server's
code; run by test/e2e/python-client.test.ts beside the client's tests.
"""

import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from quiltboard import _Replay, _seedrandom  # noqa: E402

TEAM = "00000000-0000-4000-8000-000000000001"


class Mechanism(unittest.TestCase):
    def test_seedrandom_draws_what_the_javascript_library_draws(self):
        draw = _seedrandom("abc")  # seedrandom("abc")() in Node: 0.7319428070286753, 0.6472995620587413
        self.assertEqual([draw(), draw()], [0.7319428070286753, 0.6472995620587413])

    def test_replays_the_golden_transcript(self):
        replay = _Replay({"sigma": 0.01, "threshold": 0.04, "answerDecimals": 3, "maxQueries": 8, "sensitivity": 1 / 1000}, bytes(range(32)))
        self.assertEqual([replay._draw(TEAM, i, "answer")() for i in (1, 2)], [0.8260409423667322, 0.40563395955420545])
        queries = [(0.7, 0.71), (0.72, 0.8), (0.73, 0.74), (0.6, 0.9), (0.75, 0.75), (0.5, 0.95), (0.76, 0.77), (0.77, 0.99), (0.78, 0.78)]
        replay.stream, replay.noisy_threshold = TEAM, replay._new_threshold(TEAM, 0)
        self.assertEqual(replay.noisy_threshold, 0.023303985595703125)
        budget, rows = 3, []
        for i, (holdout, public) in enumerate(queries, start=1):
            row = {"position": str(i), "holdout_value": repr(holdout), "public_value": repr(public), "budget_before": str(budget)}
            kind, answer, budget = replay._step(row, TEAM, i)
            rows.append([kind, answer, budget, replay.noisy_threshold])
        self.assertEqual(
            rows,
            [
                ["public", 0.7100000381469727, 3, 0.023303985595703125],
                ["holdout", 0.729, 2, 0.02217864990234375],
                ["public", 0.7399997711181641, 2, 0.02217864990234375],
                ["holdout", 0.528, 1, 0.03845405578613281],
                ["public", 0.75, 1, 0.03845405578613281],
                ["holdout", 0.458, 0, 0.025069236755371094],
                ["exhausted", None, 0, 0.025069236755371094],
                ["exhausted", None, 0, 0.025069236755371094],
                ["limit", None, 0, 0.025069236755371094],
            ],
        )


if __name__ == "__main__":
    unittest.main()

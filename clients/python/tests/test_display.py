"""The client writes a score as every other surface does (docs/clients.md, "How scores are shown").

The cases are the ones test/unit/guarantees.test.ts checks the web's and the CLI's rule with
(score_display.json): given the decimals the API sends with a score, the same text, halves included.
"""

import json
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from quiltboard import score_text  # noqa: E402


class Display(unittest.TestCase):
    def test_writes_each_case_as_the_web_does(self):
        with open(os.path.join(os.path.dirname(__file__), "score_display.json"), encoding="utf-8") as file:
            cases = json.load(file)["cases"]
        self.assertEqual(len(cases), 13)
        for case in cases:
            self.assertEqual(score_text(case["score"], case["bound"], case["decimals"]), case["text"], case)


if __name__ == "__main__":
    unittest.main()

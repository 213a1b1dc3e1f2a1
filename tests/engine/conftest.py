"""The engine tests share the table helpers of the variant tests (tests/rules/variantkit.py)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "rules"))

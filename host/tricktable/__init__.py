"""tricktable: an instrumented card table for Bid Euchre, Euchre and Spades.

The host package; docs/architecture.md draws its wings and layers, and
tests/test_layers.py holds them. Importing the package imports nothing else.
"""

__version__ = "0.1.0"  # the one place: pyproject.toml reads it, so do the wheel and --version

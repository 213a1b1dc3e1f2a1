"""Analysis of the card play: the double-dummy solver (``analysis.solver``) and the analysis
of recorded hands (``analysis.hand``), beside the rules core and never inside it.

Works on the engine's integer form of the card play (``engine.intplay.CardPlay``); the rules
core imports nothing from here. See docs/analysis.md.
"""

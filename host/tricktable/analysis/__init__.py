"""Analysis of the card play: the double-dummy solver (``analysis.solver``), the analysis
of recorded hands (``analysis.hand``, with par: ``analysis.par``) and single dummy (every
decision weighed over the hands its player could not see: ``analysis.knowledge``,
``analysis.sampling``, ``analysis.valuation``, ``analysis.decisions``), beside the rules core and never inside it.

Works on the engine's integer form of the card play (``engine.intplay.CardPlay``); the rules
core imports nothing from here. The modules go one way (pyproject.toml's analysis layers):
what a player knew and the search at the bottom, the layouts and test positions on them,
the valuation of contracts (``par``) and of a decision's choices above, the reports per hand and per decision on top,
then the cache and the batch. See docs/analysis.md.
"""

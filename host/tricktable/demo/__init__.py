"""The demo (``tricktable demo``): simulated tables and nights on the real stack."""

"""The deck kit: the tag registry, the tag record, and enrollment at a reader."""

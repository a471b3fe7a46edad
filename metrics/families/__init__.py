"""The metric families: one folder each, declaring everything the rest of ScoreLens asks about it."""

"""METEOR as nltk computes it (Banerjee and Lavie 2005), with an offline WordNet 3.0 index."""

from metrics.core.registry import register

register("metrics.families.meteor.metric:Meteor", "meteor", label="METEOR (nltk)", rank=50)

"""METEOR as nltk computes it (Banerjee and Lavie 2005), with an offline WordNet 3.0 index."""

from metrics.core.registry import register
from metrics.meteor.metric import Meteor

register(Meteor, "meteor", label="METEOR (nltk)", rank=50)

__all__ = ["Meteor"]

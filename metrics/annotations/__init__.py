"""Human error annotations (MQM, ESA) and model-made spans in one data model: read, scored, exported.

* :mod:`metrics.annotations.model` — the data model (:class:`Annotations`, :class:`Rating`, :class:`AnnotatedError`,
  :class:`Scheme`).
* :mod:`metrics.annotations.mqm` — MQM weights (WMT's, editable) and the MQM score of a segment.
"""

from metrics.annotations.model import AnnotatedError, Annotations, Rating, Scheme
from metrics.annotations.mqm import WMT_WEIGHTS, MqmWeights, error_weights, segment_mqm

__all__ = [
    "WMT_WEIGHTS",
    "AnnotatedError",
    "Annotations",
    "MqmWeights",
    "Rating",
    "Scheme",
    "error_weights",
    "segment_mqm",
]

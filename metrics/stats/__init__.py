"""Statistics over segment rows: resampling, confidence intervals, paired tests, correlation with humans."""

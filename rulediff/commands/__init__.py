"""Click commands, one module per feature; :mod:`rulediff.cli` registers them."""

"""``producer sweep``: a grid of dg-interval/1 or calibration/1 certificates, a summary and plots.

* :mod:`producer.sweep.grid`: the grid points, their file names and groups.
* :mod:`producer.sweep.run`: computing the groups serially or on Dask.
* :mod:`producer.sweep.summary`: the summary table (CSV and JSON).
* :mod:`producer.sweep.plots`: the PNG plots (matplotlib, Agg).
"""

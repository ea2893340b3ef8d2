"""The statistics every benchmark quotes: medians, percentiles, a run's spread and
ratios, each None (not an error) when there is nothing to summarise."""

import os
import statistics


def percentile(values, p):
    """The value at fraction `p` (0.99 for p99) of the sorted values, nearest rank: a
    value that was measured, never one interpolated between two; None when empty."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p))]


def median(values):
    """The median of the values, None when there are none."""
    values = list(values)
    return statistics.median(values) if values else None


def ratio(a, b):
    """a / b, None when either is missing or b is zero."""
    return a / b if a is not None and b else None


def spread(values, digits=0, unit=""):
    """ "median (min-max)" of a few runs, "-" when there are none."""
    values = list(values)
    if not values:
        return "-"
    fmt = f"{{:,.{digits}f}}"
    med = fmt.format(statistics.median(values))
    if len(values) == 1:
        return f"{med}{unit}"
    return f"{med}{unit} ({fmt.format(min(values))}-{fmt.format(max(values))})"


def load_average():
    """The machine's 1, 5 and 15 minute load averages, to print before and after a run."""
    return tuple(round(x, 2) for x in os.getloadavg())

"""The frontier of the exact optimum (docs/RESULTS.md): for each layout, the value
of ``acesup.optimal(rules)``, its wall time, the peak memory of the process and
the positions stored, as the rows of a Markdown table.

Each layout runs in a process of its own, so that its peak memory is its own
(``ru_maxrss``), and is stopped after ``--timeout`` seconds: a stopped layout's
row says how far it got (the opening deals solved, of how many, and the
positions stored at the stop). This is the command that regenerates the table:

    python scripts/optimal_frontier.py

Ctrl-C stops the layout running and prints nothing more.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from typing import Any

# The layouts of the table, by their R6.4 text (the options that differ from the standard game).
LAYOUTS = ("suits=4,ranks=2", "suits=4,ranks=3", "strict,suits=4,ranks=3", "easy,suits=4,ranks=3",
           "suits=4,ranks=3,deal=stuck", "strict,suits=4,ranks=3,deal=stuck", "suits=4,ranks=3,deal=any",
           "suits=4,ranks=3,deal_to=empty", "suits=4,ranks=3,relocate_single=true",
           "suits=4,ranks=3,deal=any,relocate_single=true",
           "suits=4,ranks=3,deal=any,relocate_single=true,deal_to=empty", "suits=4,ranks=3,piles=5",
           "suits=3,ranks=5", "suits=4,ranks=4,piles=5", "suits=4,ranks=4", "suits=4,ranks=5,piles=5")

# Run in the child: prints the last progress and then the value, as JSON lines.
_CHILD = """
import json, resource, sys, time, acesup
rules = acesup.Rules.parse(sys.argv[1])
began = time.perf_counter()
def progress(done, total, states):
    print(json.dumps({"done": done, "total": total, "states": states,
                      "seconds": time.perf_counter() - began,
                      "rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}), flush=True)
value = acesup.optimal(rules, threads=int(sys.argv[2]), progress=progress)
print(json.dumps({"value": [value.numerator, value.denominator], "seconds": time.perf_counter() - began,
                  "rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}), flush=True)
"""


def measure(layout: str, threads: int, timeout: float) -> dict[str, Any]:
    """The child's last report for ``layout``: the value when it finished in time,
    else its last progress."""
    child = subprocess.Popen([sys.executable, "-c", _CHILD, layout, str(threads)], stdout=subprocess.PIPE,
                             text=True)
    last: dict[str, Any] = {}  # JSON
    began = time.perf_counter()
    try:
        assert child.stdout is not None
        for line in child.stdout:
            last |= json.loads(line)  # the value's line keeps the last count of positions
            if "value" in last or time.perf_counter() - began > timeout:
                break
    finally:
        child.kill()
        child.wait()
    return last


def row(layout: str, report: dict[str, Any]) -> str:
    """The Markdown row of ``layout``."""
    memory = f"{int(report.get('rss', 0)) / 1024:,.0f} MB"
    seconds = f"{float(report.get('seconds', 0)):,.1f} s"
    if "value" in report:
        numerator, denominator = report["value"]
        value = f"{numerator}/{denominator} = {100 * numerator / denominator:.2f}%"
        if numerator == denominator:
            value = "1"
        return f"| {layout} | {value} | {seconds} | {memory} | {int(report.get('states', 0)):,} |"
    return (f"| {layout} | not reached: stopped after {seconds}, {report.get('done', 0)} of "
            f"{report.get('total', '?')} opening deals solved, {int(report.get('states', 0)):,} positions "
            f"stored | | {memory} | |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("layouts", nargs="*", default=LAYOUTS, help="R6.4 texts (default: the table's)")
    parser.add_argument("--threads", type=int, default=2, help="threads a layout (default 2)")
    parser.add_argument("--timeout", type=float, default=900, help="seconds a layout at most (default 900)")
    args = parser.parse_args(argv)
    print("| layout | optimum | time | peak memory | positions stored |")
    print("| --- | --- | ---: | ---: | ---: |")
    try:
        for layout in args.layouts:
            print(row(layout, measure(layout, args.threads, args.timeout)), flush=True)
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

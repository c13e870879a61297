"""The conformance suite runs every test that takes the ``engine`` fixture once per
engine: ``acesup.reference`` (pure Python, id "reference") and ``acesup`` (the Rust
engine, id "native"). A missing native engine is a failure, not a skip: CI always
builds it. While it is being written, run ``pytest -k reference``.

Hypothesis profiles (``HYPOTHESIS_PROFILE=<name>``):

- ``ci`` (default): derandomized, so that every run tries the same examples and a
  failure reproduces; sized to keep the whole suite within a few minutes on two cores.
- ``thorough``: many more examples, random (and saved to the example database), for
  a long run before a release or after a change to the rules.
- ``dev``: few random examples, for a quick loop while editing.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

from helpers import ENGINES, load_engine

_common = dict(
    deadline=None,  # the reference engine is slow, and timings on a shared machine vary
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)
settings.register_profile("ci", max_examples=250, derandomize=True, **_common)
settings.register_profile("thorough", max_examples=1500, **_common)
settings.register_profile("dev", max_examples=15, **_common)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(scope="session", params=list(ENGINES), ids=list(ENGINES))
def engine(request):
    return load_engine(request.param)

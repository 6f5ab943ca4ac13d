"""pytest's configuration of the Python-side tests (tests/python/run.sh runs them with the
.venv's python): each test module gets a work folder of its own, the current directory
while its tests run (Kernel Tuner writes its temporary files there); `--work DIR` keeps
the folders under DIR, otherwise pytest's temporary folder holds them."""

import os
from pathlib import Path

import pytest

from common import check_installed


def pytest_addoption(parser):
    parser.addoption("--work", help="the folder under which each test module gets its work folder")


def pytest_sessionstart(session):
    problem = check_installed()
    if problem:
        pytest.exit(problem, returncode=1)


@pytest.fixture(scope="module")
def work(request, tmp_path_factory):
    name = request.module.__name__.removeprefix("test_")
    root = request.config.getoption("--work")
    folder = Path(root).resolve() / name if root else tmp_path_factory.mktemp(name)
    folder.mkdir(parents=True, exist_ok=True)
    old = os.getcwd()
    os.chdir(folder)
    yield folder
    os.chdir(old)

"""``python -m acesup``: the command line ``acesup`` (acesup.cli)."""

from .cli import main

if __name__ == "__main__":
    raise SystemExit(main())

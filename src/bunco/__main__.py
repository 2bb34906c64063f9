"""``python -m bunco``: the same as the ``bunco`` command."""

from bunco.cli import main

if __name__ == "__main__":
    main()

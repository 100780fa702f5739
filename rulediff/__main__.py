"""``python -m rulediff`` runs the command-line tool."""

from .cli import run

if __name__ == "__main__":
    run()

"""``python -m tripletopper`` runs the command line."""

from tripletopper.cli import main

main()

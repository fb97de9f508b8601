"""``python -m tripletopper`` runs the command line."""

from tripletopper.cli import main

if __name__ == "__main__":  # not when a bot worker process imports the main module
    main()

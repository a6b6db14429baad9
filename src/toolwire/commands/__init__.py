"""One module per `toolwire` subcommand; each exposes a click `command`."""

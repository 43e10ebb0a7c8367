"""The process's configuration: operator settings (environment), the API base, log set-up and
redaction. Imports nothing of the bot but the store's database target."""

"""Announcing what happened: the durable outbox, its worker, and what to do when Discord
refuses a post."""

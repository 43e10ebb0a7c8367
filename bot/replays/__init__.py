"""The replay GIF of a finished game: ``/pyramid replay``, its button, and drawing and posting it."""

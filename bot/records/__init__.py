"""Game records: the ``/pyramid history`` file (a documented, versioned JSON format,
docs/game-record.md), the seal that makes every deal provably fair, and the
``pyramid-bot verify`` and ``pyramid-bot replay`` commands that read records.

Kept empty on purpose: each module is imported on its own, so the pure ones
(``fairness``, ``format``) pull in nothing from the store or the renderer."""

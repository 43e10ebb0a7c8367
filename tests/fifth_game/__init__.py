"""Pebble Pyramid: a tiny test-only fifth game (issue #17).

It lives in ``tests/`` on purpose: it proves that a game can be added through the
extension points alone — its rule book (:mod:`tests.fifth_game.engine`), its pictures
(:mod:`tests.fifth_game.art`) and its Discord presentation — without touching
``engine/``, ``render/`` or ``bot/``.
"""

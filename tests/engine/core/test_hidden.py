from __future__ import annotations

from engine.core import Rng
from engine.core.hidden import redeal


def test_redeal_keeps_sizes_and_contents() -> None:
    groups = [("b", "a"), (), ("d", "c", "e")]
    dealt = redeal(groups, Rng(3))
    assert [len(g) for g in dealt] == [2, 0, 3]
    assert sorted(x for g in dealt for x in g) == ["a", "b", "c", "d", "e"]


def test_redeal_depends_only_on_what_is_hidden() -> None:
    """Canonical: where the hidden items really lie never shapes the sample."""
    assert redeal([(3, 1), (2,)], Rng(9)) == redeal([(2, 3), (1,)], Rng(9))

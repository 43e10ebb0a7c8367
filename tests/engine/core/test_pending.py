from __future__ import annotations

import pytest

from engine.core import Pending


def test_to_json_is_flat_with_kind_and_player_first() -> None:
    pending = Pending("fall", 2, {"tile": "R6", "at": "1,0"})
    assert pending.to_json() == {"kind": "fall", "player": 2, "tile": "R6", "at": "1,0"}
    assert list(pending.to_json())[:2] == ["kind", "player"]
    assert Pending("stuck", 0).to_json() == {"kind": "stuck", "player": 0}


def test_detail_may_not_hide_kind_or_player() -> None:
    with pytest.raises(ValueError, match="reserved"):
        Pending("fall", 0, {"player": 1})

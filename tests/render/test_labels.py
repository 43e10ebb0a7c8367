from render.labels import letters, move_labels, spot_labels


def test_labels_follow_scan_order() -> None:
    assert spot_labels(["0,-1", "1,0", "0,3", "1,0"]) == {"1,0": "A", "0,-1": "B", "0,3": "C"}
    assert spot_labels(["1:4,5", "2:3,3", "1:4,3"]) == {"2:3,3": "A", "1:4,3": "B", "1:4,5": "C"}


def test_letters_go_past_z() -> None:
    assert [letters(i) for i in (0, 25, 26, 27, 51, 52)] == ["A", "Z", "AA", "AB", "AZ", "BA"]


def test_moves_are_lettered_by_their_cells_only() -> None:
    moves = ["play R40 1,0", "play G2 1,0", "fall left", "place 2:3,3", "build R2|Y1", "play 6-6 line:0"]
    assert move_labels(moves) == {"2:3,3": "A", "1,0": "B"}

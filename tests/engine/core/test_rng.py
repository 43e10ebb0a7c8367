from engine.core import Rng, derive_seed


def test_derived_seeds_do_not_collide() -> None:
    seeds = {derive_seed(7, f"match-{i}") for i in range(20000)}
    assert len(seeds) == 20000
    assert derive_seed(7, "a") == derive_seed(7, "a") != derive_seed(8, "a")


def test_rng_is_reproducible_and_unbiased_enough() -> None:
    a, b = Rng(5), Rng(5)
    assert [a.next64() for _ in range(5)] == [b.next64() for _ in range(5)]
    counts = [0] * 6
    rng = Rng(1)
    for _ in range(6000):
        counts[rng.below(6)] += 1
    assert min(counts) > 850
    items = list(range(10))
    Rng(3).shuffle(items)
    assert sorted(items) == list(range(10)) and items != list(range(10))

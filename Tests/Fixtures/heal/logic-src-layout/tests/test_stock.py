from shelf import below_threshold, reorder_quantity, total_stock


def test_items_well_below_are_low():
    assert below_threshold({"bolts": 1, "nuts": 40, "washers": 2}, 5) == ["bolts", "washers"]


def test_nothing_low_when_all_plentiful():
    assert below_threshold({"bolts": 10, "nuts": 40}, 5) == []


def test_item_at_threshold_is_low():
    assert below_threshold({"bolts": 5, "nuts": 40}, 5) == ["bolts"]


def test_threshold_of_zero_counts_empty_bins():
    assert below_threshold({"bolts": 0, "nuts": 3}, 0) == ["bolts"]


def test_reorder_quantity():
    assert reorder_quantity(3, 10) == 7
    assert reorder_quantity(12, 10) == 0
    assert reorder_quantity(10, 10) == 0


def test_total_stock():
    assert total_stock({"bolts": 5, "nuts": 40}) == 45
    assert total_stock({}) == 0

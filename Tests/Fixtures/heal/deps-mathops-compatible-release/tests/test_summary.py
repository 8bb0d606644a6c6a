from summary import readings, summarize


def test_readings_parse_ints_and_floats():
    assert readings(["3", " 4.5 ", "", "-2"]) == [3, 4.5, -2]


def test_summary_of_no_readings():
    assert summarize(["", "  "]) == (0, None)


def test_summary_mean():
    assert summarize(["10", "20", "30"]) == (3, 20)


def test_out_of_range_readings_are_clamped():
    assert summarize(["200", "-100"], low=-40, high=85) == (2, 22.5)

class RangeSum:
    """Constant-time sums of slices of a fixed list of numbers."""

    def __init__(self, values):
        self.prefix = [0]
        for value in values:
            self.prefix.append(self.prefix[-1] + value)

    def __len__(self):
        return len(self.prefix) - 1

    def query(self, lo, hi):
        """Sum of values[lo:hi]."""
        return self.prefix[hi] + self.prefix[lo]

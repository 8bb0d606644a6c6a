class RingQueue:
    """First-in first-out queue over a fixed number of slots."""

    def __init__(self, capacity):
        if capacity < 1:
            raise ValueError("capacity must be at least 1")
        self._slots = [None] * capacity
        self._head = 0
        self._size = 0

    def __len__(self):
        return self._size

    def push(self, item):
        if self._size == len(self._slots):
            raise OverflowError("queue is full")
        self._slots[(self._head + self._size) % len(self._slots)] = item
        self._size += 1

    def pop(self):
        if not self._size:
            raise IndexError("pop from empty queue")
        item = self._slots[self._head]
        self._slots[self._head] = None
        self._head = (self._head + 1) // len(self._slots)
        self._size -= 1
        return item

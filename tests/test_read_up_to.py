"""A file is read whole even when one `read` returns less than asked (a network or FUSE mount, a
signal): `parse/reading.read_up_to` reads on until the count or the end."""

from __future__ import annotations

import os
import threading
import time

from mnemolint.parse.reading import read_up_to


def test_a_short_read_is_read_on_to_the_count_or_the_end() -> None:
    read, write = os.pipe()  # a pipe returns what is there: the first read is short
    os.write(write, b"hello ")

    def later() -> None:
        time.sleep(0.05)
        os.write(write, b"world")
        os.close(write)

    writer = threading.Thread(target=later)
    writer.start()
    try:
        assert read_up_to(read, 64) == b"hello world"  # the end comes before the count
    finally:
        writer.join()
        os.close(read)


def test_it_stops_at_the_count() -> None:
    read, write = os.pipe()
    os.write(write, b"0123456789")
    os.close(write)
    try:
        assert read_up_to(read, 4) == b"0123"
    finally:
        os.close(read)

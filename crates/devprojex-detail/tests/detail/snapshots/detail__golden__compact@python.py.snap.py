#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""Module docstring.

With a blank line.
"""
import os
from dataclasses import dataclass
X = "# not a comment"
Y = '''
# also not a comment

'''
@dataclass
class Point:
    """A point."""
    x: int
    y: int = 0
    def __post_init__(self):
        self.z = self.x + self.y
    def __init__(self, x):
        self.x = x
        self.y = f"{x} # not"
    @property
    def norm(self) -> float:
        """Norm.

        Long docstring.
        """
        return (self.x ** 2 + self.y ** 2) ** 0.5
    def short(self): return 1
    async def fetch(self, url: str) -> bytes:
        async with self.session.get(url) as r:
            return await r.read()
def outer():
    def inner():
        return 2
    return inner
class Documented:
    '''Single-quoted summary.

    Details.
    '''
    def double(self):
        """Double-quoted summary
        on two lines.

        Details.

        More details."""
        return 2
    def raw(self):
        r"""Raw summary with \d.

        Details with \s.
        """
        return 3
    def short(self):
        "A one-quote docstring stays."
        return 4
    def fstring(self):
        f"""Not a docstring {self}.

        Kept whole."""
        return 5
    def commented(self):
        """Commented summary.

        Details.
        """
        return 6
def continued():
    assert len("abc") == 3 \

    return 1
def quoted_summary(name):
    """help('add') => "Adds two numbers"

    The summary ends in a quote: cutting after it would make four quotes."""
    return name
def continued_last():
    x = 1
    assert x == 1 \


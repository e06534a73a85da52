#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""Module docstring.
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
        """
        ...
    def short(self): return 1
    async def fetch(self, url: str) -> bytes:
        ...
def outer():
    ...
class Documented:
    '''Single-quoted summary.
    '''
    def double(self):
        """Double-quoted summary
        on two lines."""
        ...
    def raw(self):
        r"""Raw summary with \d.
        """
        ...
    def short(self):
        "A one-quote docstring stays."
        ...
    def fstring(self):
        f"""Not a docstring {self}.

        Kept whole."""
        ...
    def commented(self):
        """Commented summary.
        """
        ...
def continued():
    ...
def quoted_summary(name):
    """help('add') => "Adds two numbers"

    The summary ends in a quote: cutting after it would make four quotes."""
    ...
def continued_last():
    ...

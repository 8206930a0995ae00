"""khela from Python: the textbook's searches at khela's speed.

Trees are nested lists exactly as the textbook writes them: a list is a decision node (MAX and MIN alternate,
``root`` says who moves first), an integer is a leaf::

    >>> import khela
    >>> khela.minimax([[[3, 5], [2, 9]], [[1, 7], [4, 6]]]).value
    6
    >>> khela.alphabeta([[[3, 5], [2, 9]], [[1, 7], [4, 6]]], root="min").value
    3
"""

from ._khela import Result, alphabeta, minimax, random_tree

__all__ = ["Result", "alphabeta", "minimax", "random_tree"]

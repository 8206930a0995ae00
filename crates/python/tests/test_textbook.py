"""The textbook's examples through the bindings, and every search against a minimax written here in Python."""

import random

import pytest

import khela

TEXTBOOK = [[[3, 5], [2, 9]], [[1, 7], [4, 6]]]


def python_minimax(tree, maximise=True):
    """The textbook's minimax, in plain Python."""
    if isinstance(tree, int):
        return tree
    values = [python_minimax(child, not maximise) for child in tree]
    return max(values) if maximise else min(values)


def leaves(tree):
    return 1 if isinstance(tree, int) else sum(leaves(child) for child in tree)


def test_the_textbook_tree():
    assert khela.minimax(TEXTBOOK).value == 6
    assert khela.minimax(TEXTBOOK, root="min").value == 3
    assert khela.alphabeta(TEXTBOOK).value == 6
    assert khela.alphabeta(TEXTBOOK, root="min").value == 3
    result = khela.minimax(TEXTBOOK)
    assert (result.best, result.nodes, result.leaves, result.cutoffs) == (1, 15, 8, 0)
    assert repr(result) == "Result(value=6, best=1, nodes=15, leaves=8, cutoffs=0)"


def test_the_random_tree_of_the_ordering_table():
    tree = khela.random_tree(4, 6, 42, rng="python")
    assert leaves(tree) == 4096
    # The same leaves as Python's own generator, drawn left to right.
    rng = random.Random(42)
    flat = []

    def walk(node):
        if isinstance(node, int):
            flat.append(node)
        else:
            for child in node:
                walk(child)

    walk(tree)
    assert flat == [rng.randint(0, 99) for _ in range(4096)]
    assert khela.minimax(tree).value == 26
    result = khela.alphabeta(tree, ordering="natural")
    assert (result.value, result.leaves) == (26, 687)


def test_every_search_agrees_with_python_minimax():
    for seed in range(40):
        b, d = 2 + seed % 3, 2 + seed % 4
        tree = khela.random_tree(b, d, seed, rng="pcg", lo=-50, hi=50)
        for root in ("max", "min"):
            expected = python_minimax(tree, root == "max")
            assert khela.minimax(tree, root=root).value == expected
            built = khela.Tree(tree, root=root)
            assert (len(built), built.root) == (sum(b**i for i in range(d + 1)), root)
            assert khela.minimax(built).value == expected
            for ordering in ("natural", "reversed"):
                result = khela.alphabeta(tree, root=root, ordering=ordering)
                assert result.value == expected
                assert result.leaves <= b**d
                again = khela.alphabeta(built, ordering=ordering)
                assert (again.value, again.best, again.nodes, again.leaves, again.cutoffs) == (
                    result.value, result.best, result.nodes, result.leaves, result.cutoffs
                )


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: khela.minimax(TEXTBOOK, root="chance"), 'root "chance": max or min'),
        (lambda: khela.alphabeta(TEXTBOOK, ordering="best"), 'ordering "best": natural or reversed'),
        (lambda: khela.minimax([[1, 2], []]), "an empty list is not a node"),
        (lambda: khela.minimax([[1, 2.5]]), "a tree is nested lists with integer leaves"),
        (lambda: khela.minimax([[1, True]]), "a tree is nested lists with integer leaves"),
        (lambda: khela.random_tree(0, 3, 1), "branching factor b=0"),
        (lambda: khela.random_tree(2, 3, 1, rng="mt"), 'rng "mt": python or pcg'),
        (lambda: khela.random_tree(16, 7, 1), "more than 16777216 leaves"),
        (lambda: khela.minimax([[1, 2**53 + 1]]), "beyond ±2\\^53"),
        (lambda: khela.alphabeta(khela.Tree(TEXTBOOK), root="min"), "this Tree was built with root=\"max\""),
        (lambda: khela.Tree(TEXTBOOK, root="both"), 'root "both": max or min'),
    ],
)
def test_bad_input_raises_value_error(call, message):
    with pytest.raises(ValueError, match=message):
        call()

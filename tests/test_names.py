"""One name, one thing (STYLE.md): no class or type alias of bot/ is defined in two modules.

When two layers each define a ``Step`` or an ``OutboxCalls``, a reader (and a grep) cannot
tell which one a line means; so each concept gets a name of its own across the layers. The
test reads the source with ``ast`` (nothing is imported), so it also sees names only used
under TYPE_CHECKING.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

BOT = Path(__file__).resolve().parents[1] / "bot"


def _is_type_alias(node: ast.stmt) -> str | None:
    """The name a module-level ``Name = X[...]`` / ``Name = A | B`` / ``Name: TypeAlias``
    defines, when it is a CamelCase name bound to a type expression."""
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
        if isinstance(node.annotation, ast.Name) and node.annotation.id == "TypeAlias":
            return node.target.id
        return None
    if not (isinstance(node, ast.Assign) and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)):
        return None
    name = node.targets[0].id
    camel = name[:1].isupper() and not name.isupper() and "_" not in name
    typeish = isinstance(node.value, (ast.Subscript, ast.BinOp, ast.Attribute, ast.Name))
    return name if camel and typeish else None


def defined_names(root: Path = BOT) -> dict[str, set[str]]:
    """Every class (nested ones too) and module-level type alias of ``root``, with the
    modules (paths relative to ``root``'s parent) that define it."""
    where: dict[str, set[str]] = defaultdict(set)
    for path in sorted(root.rglob("*.py")):
        module = str(path.relative_to(root.parent))
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=module)
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                where[node.name].add(module)
        for stmt in tree.body:
            if (alias := _is_type_alias(stmt)) is not None:
                where[alias].add(module)
    return where


def test_no_class_name_is_defined_in_two_modules_of_bot() -> None:
    twice = {name: sorted(modules) for name, modules in defined_names().items()
             if len(modules) > 1}
    assert twice == {}


def test_the_walk_finds_classes_and_aliases(tmp_path: Path) -> None:
    """The check itself sees what it must: a class and an alias of one name in two
    modules are both counted (so an empty answer above means something)."""
    pkg = tmp_path / "bot"
    (pkg / "a").mkdir(parents=True)
    (pkg / "a" / "x.py").write_text("class Step:\n    pass\n", encoding="utf-8")
    (pkg / "y.py").write_text("Step = tuple[int, int]\nLIMIT = 3\n", encoding="utf-8")
    found = defined_names(pkg)
    assert found["Step"] == {"bot/a/x.py", "bot/y.py"}
    assert "LIMIT" not in found

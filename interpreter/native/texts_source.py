"""Texts in a native kernel (a mixin of rules_source.KernelSource): a text is coded as the order
in which the renderer first met it (a literal, a component's attribute in the reference state,
a variable's default), so equal texts have equal codes and a text met only later (a rollout's
state) is unequal to every other; none is -1. A text attribute is then a column like any other
(`create 1 Continent { name: n }` checks it against the reference's, as every column)."""
from __future__ import annotations


class TextsSource:
    """Text codes for KernelSource."""

    def text_code(self, value: str) -> int:
        codes = self.__dict__.setdefault("text_codes", {})
        return codes.setdefault(value, len(codes))

    def visit_Text(self, node, scope, want):
        return str(self.text_code(node.value))

"""Stage 4 of the data's path: a task -> a decision (docs/formats.md §6).

- :mod:`~routelens.routing.matching`: normalisation, tokens, candidate
  generation, scores and spans;
- :mod:`~routelens.routing.decision`: what the router answers
  (:class:`Decision`, :class:`Expansion`, :class:`Explanation`, reasons);
- :mod:`~routelens.routing.entries`: entries and their canonical ranges,
  index- or registry-backed, read back for the selection;
- :mod:`~routelens.routing.policy`: the decision order as one function over
  a typed :class:`Evidence` value;
- :mod:`~routelens.routing.explain`: why a skill was or was not chosen;
- :mod:`~routelens.routing.router`: the facade (loading, matching, deciding).

Nothing in this package imports a routelens module above it.
"""

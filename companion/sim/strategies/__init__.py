"""How bots play, one module per family of strategies:

- :mod:`.yard`: what the prisoners agree and hear in the yard (the plan, who broke one) and the
  prisoners' planning policies;
- :mod:`.prisoners`: the prisoner strategies (loyal, opportunist, saboteur, and the habitual
  prisoner learned from real tables);
- :mod:`.accusations`: the prisoners' accusation habits, and what triggers each;
- :mod:`.warden`: the warden's search and deal habits;
- :mod:`.mixes`: the named mixes that combine them for a whole table.

Every decision takes a view (a typed dict from :mod:`companion.rules.prison.views`), the bot
layer's own knowledge (the prisoners' plan, what informants said) and the game's random
generator; never the engine's state.
"""

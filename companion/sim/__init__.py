"""Bots, simulation and balance for the prison break.

Bots play through the real engine (:func:`companion.rules.prison.engine.decide` and ``evolve``) and
each decides only from its role's view (:mod:`companion.rules.prison.views`). What the engine
does not record (the prisoners' plan, what an informant tells the warden) is modelled here.
"""

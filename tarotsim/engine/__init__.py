"""The engine: the rules and nothing but the rules. Cards and their notation, every name,
the table state, the deal, the rule steps (a step says which decision is needed and never
makes it), the count, the score, constrained dealing, the record and trace formats; the
compiled code in ``kernels``."""

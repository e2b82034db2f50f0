"""Building blocks of search players: a uniform sampler of the deals consistent with what a
seat knows (``worlds``) and an exact double-dummy solver of Tarot endgames (``solver``)."""

"""Decision policies run inside the kernels: bidding, écart, announcements, card play."""

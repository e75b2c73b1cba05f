"""Producer: exact computation of differential-privacy quantities as certificates."""

__version__ = "0.1.0"
NAME = "dp-certify-producer"
